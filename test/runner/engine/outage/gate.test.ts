// The outage gate on a fake clock: one shared probe with backoff, "waiting" and "back" lines,
// the limit, giving up (and one quick ping afterwards, not another full wait).
import { describe, expect, it } from 'vitest';
import { OutageGate } from '../../../../runner/src/engine/outage/index.js';

/**
 * A gate whose engine answers from `upAt` (ms on the fake clock) on, or whenever `upAt(t)` says;
 * sleeping advances the clock. Settling is off unless asked for (its own tests below).
 */
function harness(upAt: number | null | ((t: number) => boolean), limitSeconds = 60, settleMs = 0) {
  let t = 0;
  const lines: string[] = [];
  const pings: number[] = [];
  const sleeps: number[] = [];
  const gate = new OutageGate({
    limitSeconds,
    settleMs,
    log: (l) => lines.push(l),
    now: () => t,
    sleep: async (ms) => {
      sleeps.push(ms);
      t += ms;
    },
    ping: async () => {
      pings.push(t);
      const up = typeof upAt === 'function' ? upAt(t) : upAt !== null && t >= upAt;
      if (!up) throw Object.assign(new Error('connect ENOENT'), { code: 'ENOENT' });
    },
  });
  return { gate, lines, pings, sleeps, setUp: (ms: number | null) => (upAt = ms), clock: () => t, advance: (ms: number) => (t += ms) };
}

describe('OutageGate', () => {
  it('is open without a probe while no outage was reported', async () => {
    const h = harness(null);
    expect(await h.gate.ready()).toBe(true);
    expect(h.pings).toEqual([]);
    expect(h.gate.seen).toBe(false);
  });

  it('an engine that answers at once: no waiting line, back at once', async () => {
    const h = harness(0);
    expect(await h.gate.reportOutage()).toBe(true);
    expect(h.pings).toHaveLength(1);
    expect(h.lines).toEqual([]);
    expect(h.gate.seen).toBe(true); // the failed run itself is evidence
  });

  it('waits with backoff until the engine answers, saying so, and records the window', async () => {
    const h = harness(5000);
    expect(await h.gate.reportOutage()).toBe(true);
    expect(h.sleeps).toEqual([250, 500, 1000, 2000, 4000]); // doubling, capped at 5 s
    expect(h.lines[0]).toMatch(/^engine unreachable, waiting \(up to 60s; no new runs start meanwhile\)…$/);
    expect(h.lines.at(-1)).toMatch(/^engine back after 8s; runs continue/);
    expect(h.gate.downBetween(1000, 2000)).toBe(true);
    expect(h.gate.downBetween(9000, 10_000)).toBe(false);
  });

  it('repeats the waiting line every 10 s with the time waited', async () => {
    const h = harness(25_000);
    await h.gate.reportOutage();
    expect(h.lines.filter((l) => /^engine unreachable, waiting \(\d+s\)…$/.test(l)).map((l) => l.match(/\((\d+)s\)/)![1])).toEqual(['13', '23']);
  });

  it('lanes share one probe: concurrent reports and ready() calls wait on the same pings', async () => {
    const h = harness(3000);
    const all = await Promise.all([h.gate.reportOutage(), h.gate.reportOutage(), h.gate.ready()]);
    expect(all).toEqual([true, true, true]);
    expect(h.lines.filter((l) => l.startsWith('engine unreachable'))).toHaveLength(1);
    expect(h.lines.filter((l) => l.startsWith('engine back'))).toHaveLength(1);
  });

  it('gives up at the limit; afterwards one quick ping per caller, no second wait; then recovers', async () => {
    const h = harness(null, 10);
    expect(await h.gate.reportOutage()).toBe(false);
    expect(h.clock()).toBe(10_000);
    expect(h.lines.at(-1)).toMatch(/^engine still unreachable after 10s: giving up; .*--retry/);
    const before = h.pings.length;
    expect(await h.gate.ready()).toBe(false);
    expect(await h.gate.reportOutage()).toBe(false);
    expect(h.pings.length).toBe(before + 2);
    expect(h.clock()).toBe(10_000); // no sleeping
    h.setUp(0);
    expect(await h.gate.ready()).toBe(true);
    expect(h.lines.at(-1)).toBe('engine back; runs continue');
  });

  it('limit 0: never waits', async () => {
    const h = harness(null, 0);
    expect(await h.gate.reportOutage()).toBe(false);
    expect(h.sleeps).toEqual([]);
  });
});

describe('OutageGate and Ctrl-C', () => {
  it('an abort ends the wait at once, without the giving-up line', async () => {
    const ac = new AbortController();
    let t = 0;
    const lines: string[] = [];
    const gate = new OutageGate({
      limitSeconds: 60,
      log: (l) => lines.push(l),
      now: () => t,
      signal: ac.signal,
      sleep: async (ms) => {
        t += ms;
        if (t > 1000) ac.abort();
      },
      ping: async () => {
        throw new Error('connect ECONNREFUSED');
      },
    });
    expect(await gate.reportOutage()).toBe(false);
    expect(t).toBeLessThan(5000);
    expect(lines.some((l) => l.includes('giving up'))).toBe(false);
  });

  it('an engine counts as back only once it answered every ping for the settle time (a dockerd shutting down answers a while)', async () => {
    // answers until 1 s (the old daemon stopping its containers), away until 2.5 s, then for good
    const h = harness((t) => t < 1000 || t >= 2500, 60, 3000);
    expect(await h.gate.reportOutage()).toBe(true);
    expect(h.clock()).toBeGreaterThanOrEqual(5500);
    expect(h.lines[0]).toMatch(/^engine unreachable, waiting/);
    expect(h.lines.at(-1)).toMatch(/^engine back after \d+s/);
    expect(h.gate.downBetween(1200, 1300)).toBe(true);
  });

  it('watch: an engine that answers throughout is not an outage; one that goes away meanwhile is waited out', async () => {
    const calm = harness(0, 60, 0);
    expect(await calm.gate.watch(1000)).toBe(false);
    expect(calm.clock()).toBe(1000);
    expect(calm.pings.length).toBeGreaterThanOrEqual(4);
    expect(calm.gate.seen).toBe(false);
    expect(calm.lines).toEqual([]);

    const restarting = harness((t) => t < 500 || t >= 2000, 60, 0);
    expect(await restarting.gate.watch(5000)).toBe(true);
    expect(restarting.clock()).toBeGreaterThanOrEqual(2000);
    expect(restarting.gate.downBetween(600, 700)).toBe(true);
    expect(restarting.lines.at(-1)).toMatch(/^engine back after/);
  });
});
