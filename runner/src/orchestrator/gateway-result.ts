// What the model gateway adds to a finished scenario run's result: the tokens and cost of its
// traffic record (the provider's own usage fields, whatever the agent); when the run ended in
// an error after the gateway gave up on a request, the typed cause naming the provider and its
// status (provider_error) instead of whatever the agent made of it; and when the agent's
// program failed turns on its own, the record's word on them (run/agent-failures.ts). An agent
// that wrote no trace of its own gets one from the record (run/traffic-trace.ts).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ScenarioResult } from '@gaia2/contract/result';
import { TRAFFIC_FILE, type GatewayStats, type RunGateway } from '../gateway/index.js';
import { classify } from '../report/index.js';
import { usageOfTraffic } from '../usage/run-usage.js';
import { weighAgentFailures, type FailureEvidence } from '../run/agent-failures.js';
import { keepAgentTrace } from '../run/traffic-trace.js';

export async function gatewayResult(gw: RunGateway, container: string, dir: string | null, result: ScenarioResult): Promise<ScenarioResult> {
  const failure = await gw.finish(container, dir);
  let out = result;
  const file = dir ? join(dir, TRAFFIC_FILE) : null;
  // A container that made no model call has no file: an empty record, still evidence.
  const traffic = file && existsSync(file) ? readFileSync(file, 'utf8') : null;
  if (traffic !== null) {
    const usage = usageOfTraffic(traffic, {});
    if (usage) out = { ...out, usage };
    if (dir) await keepAgentTrace(dir, traffic);
  }
  if (failure && classify(out) === 'error') {
    out = {
      ...out,
      error_kind: 'provider_error',
      error: `${failure.message} (${failure.role === 'app_agent' ? 'an app agent' : `the ${failure.role}`}'s request)`,
      provider_failure: { provider: failure.provider, status: failure.status },
    };
  }
  return weighAgentFailures(out, recordEvidence(dir, traffic));
}

/** The gateway's record of a container and its events.jsonl; none without an output directory. */
function recordEvidence(dir: string | null, traffic: string | null): FailureEvidence {
  if (!dir) return { none: 'no output directory kept the model gateway’s record' };
  const events = join(dir, 'events.jsonl');
  return { record: { traffic: traffic ?? '', events: existsSync(events) ? readFileSync(events, 'utf8') : '' } };
}

/** The counts the progress line shows. */
export function trafficCounts(s: GatewayStats): { queued: number; throttled: number; retried: number } {
  let queued = 0;
  for (const p of Object.values(s.providers)) queued += p.queued;
  return { queued, throttled: s.throttled, retried: s.retried };
}

/** report.json's model_gateway counts. */
export function gatewayTotals(s: GatewayStats): Record<string, unknown> {
  const { providers, ...totals } = s;
  return { ...totals, providers: Object.fromEntries(Object.entries(providers).map(([k, p]) => [k, { queued_total: p.queued_total, throttled: p.throttled, retried: p.retried, gave_up: p.gave_up, resumed: p.resumed, broken: p.broken, concurrency_cap: p.concurrency_cap }])) };
}
