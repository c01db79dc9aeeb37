// The Noise phase on a trace page: noise.jsonl's tool failures as timeline items (they leave
// no events.jsonl line), and a summary of what was injected.
import { NOISE_EVENT_PREFIX, type EventLine } from '@gaia2/contract/events';
import { asArr, asNum, asObj, asStr } from '../../trace/json-util.js';
import type { TimelineItem, TraceView } from './types.js';

type FailureItem = Extract<TimelineItem, { k: 'failure' }>;
type Obj = Record<string, unknown>;

/** "YYYY-MM-DD HH:MM:SS" (UTC) → epoch seconds; NaN when unparseable. */
const simEpoch = (s: string): number => (/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(s) ? Date.parse(s.replace(' ', 'T') + 'Z') / 1000 : Number.NaN);

export function noiseView(records: Obj[], events: EventLine[]): { failures: FailureItem[]; summary: TraceView['noise'] } {
  if (records.length === 0) return { failures: [], summary: null };
  const failures: FailureItem[] = records
    .filter((r) => r.kind === 'tool_failure')
    .map((r) => ({ k: 'failure', t: simEpoch(asStr(r.sim_t)), simT: asStr(r.sim_t), tool: asStr(r.tool), argv: asArr(r.argv).map(asStr), message: asStr(r.message), eventsBefore: typeof r.events_before === 'number' ? r.events_before : null }));
  const settings = asObj(records.find((r) => r.kind === 'settings')?.settings);
  const ta = settings.tool_augmentation === null ? null : asObj(settings.tool_augmentation);
  const ev = settings.env_events === null ? null : asObj(settings.env_events);
  return {
    failures,
    summary: {
      toolFailureProbability: ta ? asNum(ta.tool_failure_probability) : null,
      toolSeed: ta ? asNum(ta.seed) : null,
      eventsPerMinute: ev ? asNum(ev.num_env_events_per_minute) : null,
      eventsSeed: ev ? asNum(ev.env_events_seed) : null,
      planned: records.filter((r) => r.kind === 'env_event').length,
      fired: events.filter((e) => typeof e.event_id === 'string' && e.event_id.startsWith(NOISE_EVENT_PREFIX)).length,
      failures: failures.length,
    },
  };
}
