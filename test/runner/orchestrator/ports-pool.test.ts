// Host-network adapter ports (spec §9 test_cli_ports.py semantics, drawn at task start) and
// the bounded pool.
import { describe, expect, it } from 'vitest';
import { allocatePort, freePort, runPool } from '../../../runner/src/orchestrator/index.js';

const seq = (...ports: number[]) => {
  let i = 0;
  return async () => ports[Math.min(i++, ports.length - 1)]!;
};

describe('adapter port allocation', () => {
  it('two draws in a row are distinct even when the OS repeats a port', async () => {
    const reserved = new Set<number>();
    const draw = seq(41000, 41000, 41001);
    expect([await allocatePort(reserved, draw), await allocatePort(reserved, draw)]).toEqual([41000, 41001]);
  });
  it('skips reserved ports and reserves the new ones', async () => {
    const reserved = new Set([41000]);
    const draw = seq(41000, 41000, 41001, 41002);
    expect([await allocatePort(reserved, draw), await allocatePort(reserved, draw)]).toEqual([41001, 41002]);
    expect(reserved).toEqual(new Set([41000, 41001, 41002]));
  });
  it('gives up after the attempt bound', async () => {
    await expect(allocatePort(new Set([41000]), seq(41000), 3)).rejects.toThrow(/unique free port/);
  });
  it('a real draw is a bindable loopback port', async () => {
    const p = await freePort();
    expect(p).toBeGreaterThan(1023);
  });
});

describe('pool', () => {
  it('never exceeds the concurrency and starts tasks in order', async () => {
    let inFlight = 0;
    let max = 0;
    const started: number[] = [];
    await runPool([0, 1, 2, 3, 4, 5, 6], 3, async (i) => {
      started.push(i);
      inFlight++;
      max = Math.max(max, inFlight);
      await new Promise((r) => setTimeout(r, 5 + (i % 3) * 3));
      inFlight--;
    });
    expect(max).toBe(3);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });
  it('starts nothing after the signal is aborted', async () => {
    const ac = new AbortController();
    const started: number[] = [];
    await runPool([0, 1, 2, 3], 1, async (i) => {
      started.push(i);
      if (i === 1) ac.abort();
    }, ac.signal);
    expect(started).toEqual([0, 1]);
  });
});
