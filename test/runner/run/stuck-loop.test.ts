// The stuck-loop rule (docs/runner.md, "Stuck loops"): the same call, with the same result,
// N times in a row; read from events.jsonl lines as the world daemon writes them.
import { describe, expect, it } from 'vitest';
import type { EventLine } from '@gaia2/contract';
import { buildResult, type Observed } from '../../../runner/src/run/result.js';
import { canonicalJson, feedEventsChunk, findStuckLoop, StuckLoopDetector, stuckLoopReason } from '../../../runner/src/run/stuck-loop.js';
import { StuckLoopWatch } from '../../../runner/src/run/stuck-loop-watch.js';

let t = 0;
const call = (fn: string, args: Record<string, unknown>, ret: unknown, app = 'ShoppingApp'): EventLine => ({ t: t++, app, fn, args, w: false, ret, sim_t: `2025-01-01 00:00:${String(t % 60).padStart(2, '0')}` });
const cart = (ret: unknown = { items: [] }) => call('get_cart', {}, ret);
const env = (): EventLine => ({ ...call('create_email', { subject: 'x' }, 'e1', 'EmailClientApp'), event_id: 'Event-ENV-1' });
const delivery = (): EventLine => call('send_message_to_agent', { content: 'are you there?' }, null, 'AgentUserInterface');
const jsonl = (lines: Array<EventLine | string>) => Buffer.from(lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');

function run(n: number, lines: EventLine[]) {
  const d = new StuckLoopDetector(n);
  for (const l of lines) d.feed(l);
  return d.loop;
}

describe('stuck-loop detector', () => {
  it('the threshold is exact: N-1 identical calls are no loop, the Nth is', () => {
    expect(run(4, [cart(), cart(), cart()])).toBeNull();
    const loop = run(4, [cart(), cart(), cart(), cart()]);
    expect(loop).toMatchObject({ tool: 'ShoppingApp__get_cart', args: {}, count: 4, min_tool_calls: 4, line: 4 });
  });

  it('repeats whose result changes are progress and never count (polling until something arrives)', () => {
    const lines = Array.from({ length: 10 }, (_, i) => cart({ items: i < 5 ? [] : [{ id: 'b' }] }));
    // five empty answers, then five with the item: two streaks of 5, neither reaching 6
    expect(run(6, lines)).toBeNull();
    expect(run(5, lines)).toMatchObject({ count: 5, line: 5 });
  });

  it('different arguments reset the streak; key order does not make arguments different', () => {
    const a = () => call('search_product', { name: 'bottle', offset: 0 }, []);
    const b = () => call('search_product', { name: 'bottles', offset: 0 }, []);
    expect(run(3, [a(), a(), b(), a(), a(), b()])).toBeNull();
    const reordered = call('search_product', { offset: 0, name: 'bottle' }, []);
    expect(run(3, [a(), a(), reordered])).toMatchObject({ tool: 'ShoppingApp__search_product', count: 3 });
    expect(canonicalJson({ b: [{ y: 1, x: 2 }], a: null })).toBe('{"a":null,"b":[{"x":2,"y":1}]}');
  });

  it('another tool in between resets the streak', () => {
    expect(run(3, [cart(), cart(), call('list_all_products', {}, []), cart(), cart()])).toBeNull();
  });

  it("the environment's own events do not break a streak; a message to the agent does", () => {
    expect(run(3, [cart(), env(), cart(), env(), cart()])).toMatchObject({ count: 3, line: 5 });
    expect(run(3, [cart(), cart(), delivery(), cart(), cart()])).toBeNull();
  });

  it('the first loop is reported, with the whole streak counted as far as it goes', () => {
    const loop = run(3, [cart(), cart(), cart(), cart(), cart(), call('checkout', {}, 'ok'), ...Array.from({ length: 9 }, () => call('checkout', {}, 'ok'))]);
    expect(loop).toMatchObject({ tool: 'ShoppingApp__get_cart', count: 5, line: 3 });
  });

  it('reads events.jsonl in chunks: torn last lines wait, blank and broken lines keep line numbers', () => {
    const whole = jsonl([cart(), 'not json', cart(), '', cart()]);
    const cut = whole.length - 10; // inside the last line
    const d = new StuckLoopDetector(3);
    const used = feedEventsChunk(d, whole.subarray(0, cut));
    expect(used).toBeLessThan(cut);
    expect(whole[used - 1]).toBe(0x0a);
    expect(d.loop).toBeNull(); // the third call is still torn
    expect(feedEventsChunk(d, whole.subarray(used))).toBe(whole.length - used);
    expect(d.loop).toMatchObject({ count: 3, line: 5 });
    expect(findStuckLoop(whole, 3)).toEqual(d.loop);
  });

  it('off means off: 0 finds nothing, and the detector refuses a threshold below 2', () => {
    expect(findStuckLoop(jsonl([cart(), cart(), cart()]), 0)).toBeNull();
    expect(() => new StuckLoopDetector(1)).toThrow(/>= 2/);
  });
});

describe('a stuck loop in result.json', () => {
  const base: Observed = { scenarioId: 's1', scenarioFile: '/x/s1.json', status: null, numAgentEvents: 7, agentResponse: null };
  const loop = findStuckLoop(jsonl([cart(), cart(), cart()]), 3)!;

  it('is a judged failure (not an error, so it stays in every denominator) with its reason and record', () => {
    const r = buildResult({ ...base, stuckLoop: loop, status: { status: 'running', turn: 0, nb_turns: 1, num_events: 3 } });
    expect(r).toMatchObject({ status: 'fail', success: false, reward: 0, stuck_loop: { tool: 'ShoppingApp__get_cart', count: 3, min_tool_calls: 3 } });
    expect(r.error_kind).toBeUndefined();
    expect(r.failure_reasons).toEqual([stuckLoopReason(loop)]);
    expect(r.failure_reasons![0]).toMatch(/^Stuck loop: the agent called ShoppingApp__get_cart 3 times in a row .*stuck_loop_min_tool_calls = 3/);
  });

  it('wins over a later verdict or a later error', () => {
    const judged = { status: 'complete', turn: 1, nb_turns: 1, num_events: 4, judgment: { success: true, failure_reason: '' } } as const;
    expect(buildResult({ ...base, stuckLoop: loop, status: judged }).status).toBe('fail');
    expect(buildResult({ ...base, stuckLoop: loop, failure: { kind: 'provider_error', message: '429' } }).status).toBe('fail');
  });
});

describe('live watch of a running unit', () => {
  it('reads only when the event count moved, feeds only new bytes, and reports the loop', async () => {
    const lines = [cart(), cart(), cart()];
    let file = jsonl(lines.slice(0, 2));
    let reads = 0;
    const unit = { readFile: async () => (reads++, file) };
    const w = new StuckLoopWatch(unit, 3);
    expect(await w.check(1)).toBeNull(); // fewer lines than the threshold: no read
    expect(reads).toBe(0);
    expect(await w.check(3)).toBeNull(); // the daemon's count also holds deliveries: read, two calls so far
    expect(reads).toBe(1);
    file = jsonl(lines);
    (w as unknown as { nextReadAt: number }).nextReadAt = 0; // past the read gap
    expect(await w.check(3)).toBeNull(); // same count: no read
    expect(reads).toBe(1);
    expect(await w.check(4)).toMatchObject({ tool: 'ShoppingApp__get_cart', count: 3, line: 3 });
  });

  it('a unit whose files cannot be read leaves the decision to the collected log', async () => {
    const logs: string[] = [];
    const w = new StuckLoopWatch({ readFile: () => Promise.reject(new Error('no archive API')) }, 3, (l) => logs.push(l));
    expect(await w.check(5)).toBeNull();
    expect(logs[0]).toMatch(/cannot read events.jsonl \(no archive API\)/);
  });

  it('a read that hangs gives up after its deadline, so the poll loop and its timeouts go on', async () => {
    const logs: string[] = [];
    const w = new StuckLoopWatch({ readFile: () => new Promise<Buffer | null>(() => {}) }, 3, (l) => logs.push(l), 50);
    const started = Date.now();
    expect(await w.check(5)).toBeNull();
    expect(Date.now() - started).toBeLessThan(2000);
    expect(logs[0]).toMatch(/cannot read events.jsonl \(no answer within 0.05 s\)/);
  });
});
