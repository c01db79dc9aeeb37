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
