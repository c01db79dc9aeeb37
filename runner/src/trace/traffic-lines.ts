// The model gateway's record as readers see it: `<scenario dir>/model_traffic.jsonl`, one trace
// line per model request stamped with the role that made it (docs/gateway.md).

export const TRAFFIC_FILE = 'model_traffic.jsonl';

export type TrafficRole = 'agent' | 'app_agent' | 'judge';

/**
 * The lines of one role, as trace text. A line's own `role` comes right after its fixed header
 * fields, before any body, so the first `"role":` of a line is the line's.
 */
export function linesOfRole(text: string, role: TrafficRole): string {
  return text
    .split('\n')
    .filter((line) => /"role":"(agent|app_agent|judge)"/.exec(line)?.[1] === role)
    .join('\n');
}

/**
 * The run's gateway counts while it runs and after (`<output dir>/model_gateway.json`): what
 * the progress line shows, for the live dashboard (docs/gateway.md).
 */
export const GATEWAY_COUNTS_FILE = 'model_gateway.json';

export interface GatewayCounts {
  /** Requests waiting for admission now. */
  queued: number;
  /** Rate-limit answers (429/529) so far. */
  throttled: number;
  /** Attempts repeated so far. */
  retried: number;
  /** Requests the gateway gave up on so far. */
  gave_up: number;
  /** Requests so far. */
  requests: number;
  /** The agent side's spend so far (tokens in + out, priced dollars; docs/runner.md "Budgets"); 0 in older files. */
  spent_tokens: number;
  spent_usd: number;
  /** Calls refused because a budget cap was met; 0 in older files. */
  over_budget: number;
  /** False once the run's gateway closed. */
  running: boolean;
}
