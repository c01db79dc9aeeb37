// The model gateway's counts of a run (model_gateway.json, written while the run runs and at
// its end), for the dashboard's counters; null when the run used no gateway.
import { join } from 'node:path';
import { asNum } from '../../trace/json-util.js';
import { GATEWAY_COUNTS_FILE, type GatewayCounts } from '../../trace/traffic-lines.js';
import { readJsonObject } from './artifacts.js';

export function gatewayCountsOf(dir: string): GatewayCounts | null {
  const o = readJsonObject(join(dir, GATEWAY_COUNTS_FILE));
  if (!o) return null;
  return { queued: asNum(o.queued), throttled: asNum(o.throttled), retried: asNum(o.retried), gave_up: asNum(o.gave_up), requests: asNum(o.requests), spent_tokens: asNum(o.spent_tokens), spent_usd: asNum(o.spent_usd), over_budget: asNum(o.over_budget), running: o.running === true };
}
