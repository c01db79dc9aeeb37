// The trace page's timeline: conversation groups, events.jsonl lines (notifications, user
// messages, replies, app actions) and the judge's verdicts, in time order.
import { isEnvLine, isReplyLine, isUserLine, AUI_APP, NOISE_EVENT_PREFIX, SEND_MESSAGE_TO_AGENT, type EventLine } from '@gaia2/contract';
import { cap, type CallGroup } from './conversation.js';
import type { TimelineItem } from './types.js';

type EventItem = Extract<TimelineItem, { k: 'event' }>;
type Verdict = Extract<TimelineItem, { k: 'verdict' }>;
type Timed = Extract<TimelineItem, { k: 'event' } | { k: 'failure' }>;

function eventKind(e: EventLine): EventItem['kind'] {
  if (isEnvLine(e)) return 'env';
  if (isUserLine(e) || (e.app === AUI_APP && e.fn === SEND_MESSAGE_TO_AGENT)) return 'user';
  if (isReplyLine(e)) return 'reply';
  return 'action';
}

const capJson = (v: unknown): unknown => {
  const s = typeof v === 'string' ? v : JSON.stringify(v ?? null);
  return s.length > 20_000 ? cap(s, 20_000) : v;
};

export function eventItems(events: EventLine[]): EventItem[] {
  return events.map((e) => ({
    k: 'event',
    kind: eventKind(e),
    t: typeof e.t === 'number' ? e.t : Number.NaN,
    ...(typeof e.wall_t === 'number' ? { wall: e.wall_t } : {}),
    simT: typeof e.sim_t === 'string' ? e.sim_t : '',
    app: String(e.app ?? ''),
    fn: String(e.fn ?? ''),
    args: capJson(e.args),
    ret: capJson(e.ret),
    write: e.w === true,
    eventId: typeof e.event_id === 'string' ? e.event_id : '',
    ...(typeof e.event_id === 'string' && e.event_id.startsWith(NOISE_EVENT_PREFIX) ? { noise: true } : {}),
  }));
}

/**
 * Puts each failure right after the events.jsonl lines written before it (recorded by the
 * daemon); a record without that count goes after the events of its sim second.
 */
export function withFailures(events: EventItem[], failures: Array<Extract<TimelineItem, { k: 'failure' }>>): Timed[] {
  if (!failures.length) return events;
  const slot = (f: Extract<TimelineItem, { k: 'failure' }>): number => {
    if (f.eventsBefore !== null) return Math.min(f.eventsBefore, events.length);
    const i = events.findIndex((e) => Math.floor(e.t) > f.t);
    return i < 0 ? events.length : i;
  };
  const bySlot = failures.map((f, i) => ({ f, i, at: slot(f) })).sort((a, b) => a.at - b.at || a.i - b.i);
  const out: Timed[] = [];
  let k = 0;
  events.forEach((e, i) => {
    while (k < bySlot.length && bySlot[k]!.at <= i) out.push(bySlot[k++]!.f);
    out.push(e);
  });
  while (k < bySlot.length) out.push(bySlot[k++]!.f);
  return out;
}

/**
 * Events go before the first call group that started after them; groups without a
 * timestamp take the previous group's time so order is kept.
 */
export function mergeTimeline(task: string, taskSimT: string, groups: CallGroup[], events: Timed[], verdicts: Verdict[]): TimelineItem[] {
  const out: TimelineItem[] = [];
  if (task) out.push({ k: 'task', text: cap(task), simT: taskSimT });
  const times = eventTimes(events);
  const clock = eventClock(groups, times);
  if (clock.note) out.push({ k: 'context', seq: 0, note: clock.note });
  let ei = 0;
  let lastTime = Number.NEGATIVE_INFINITY;
  for (const g of groups) {
    const time = Number.isNaN(g.time) ? lastTime : g.time;
    lastTime = time;
    while (ei < events.length && clock.toCallMs(times[ei]!) <= time) out.push(events[ei++]!);
    out.push(...g.items);
  }
  while (ei < events.length) out.push(events[ei++]!);
  return placeVerdicts(out, verdicts);
}

const HOUR_MS = 3_600_000;

/**
 * The time of each timed item on the model calls' clock: the machine clock the daemon stamps
 * on each line (wall_t, the clock of trace.jsonl and of the gateway's record) when the lines
 * carry it, a failure taking its neighbour's; else each line's own `t`.
 */
function eventTimes(items: Timed[]): number[] {
  if (!items.some((e) => e.k === 'event' && e.wall !== undefined)) return items.map((e) => e.t);
  const out = items.map((e) => (e.k === 'event' && e.wall !== undefined ? e.wall : Number.NaN));
  for (let i = 1; i < out.length; i++) if (Number.isNaN(out[i]!)) out[i] = out[i - 1]!;
  for (let i = out.length - 2; i >= 0; i--) if (Number.isNaN(out[i]!)) out[i] = out[i + 1]!;
  return out;
}

/**
 * Maps an events.jsonl time (epoch s) onto the trace's clock (epoch ms). Both are normally
 * the wall clock; when the app CLIs ran under a faked clock the two spans do not overlap,
 * and events are spread linearly over the calls' span instead (order within each stream is
 * kept, interleaving is approximate, and the page says so).
 */
function eventClock(groups: CallGroup[], times: number[]): { toCallMs: (t: number) => number; note: string } {
  const identity = { toCallMs: (t: number) => t * 1000, note: '' };
  const callTimes = groups.map((g) => g.time).filter((t) => !Number.isNaN(t));
  const eventTimes = times.map((t) => t * 1000).filter((t) => !Number.isNaN(t));
  if (!callTimes.length || !eventTimes.length) return identity;
  const c0 = Math.min(...callTimes);
  const c1 = Math.max(...callTimes);
  const e0 = Math.min(...eventTimes);
  const e1 = Math.max(...eventTimes);
  if (e1 >= c0 - HOUR_MS && e0 <= c1 + HOUR_MS) return identity;
  const scale = e1 > e0 ? (c1 - c0) / (e1 - e0) : 0;
  return {
    toCallMs: (t: number) => c0 + (t * 1000 - e0) * scale,
    note: 'events.jsonl and trace.jsonl use different clocks (faked time?): app events are interleaved with LLM calls approximately.',
  };
}

/** Verdict k goes right after the agent's k-th reply (the turn boundary), else at the end. */
function placeVerdicts(items: TimelineItem[], verdicts: Verdict[]): TimelineItem[] {
  if (!verdicts.length) return items;
  const out: TimelineItem[] = [];
  const pending = [...verdicts];
  let replies = 0;
  for (const item of items) {
    out.push(item);
    if (item.k === 'event' && item.kind === 'reply') {
      while (pending.length && pending[0]!.turn <= replies) out.push(pending.shift()!);
      replies++;
    }
  }
  out.push(...pending);
  return out;
}
