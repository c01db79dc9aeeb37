import { describe, expect, it } from 'vitest';
import { BackgroundWork } from '../../../runner/src/run/background-work.js';

const later = <T>(ms: number, v?: T) => new Promise<T>((r) => setTimeout(() => r(v as T), ms));

describe('BackgroundWork', () => {
  it('starts work at once and waits for room only beyond its limit', async () => {
    const w = new BackgroundWork(2, () => {});
    const done: string[] = [];
    await w.add(() => later(40).then(() => void done.push('a')));
    await w.add(() => later(10).then(() => void done.push('b')));
    expect(w.inFlight).toBe(2);
    await w.add(async () => void done.push('c')); // waited for b's slot
    expect(done).toContain('b');
    expect(done).not.toContain('a');
    await w.drain();
    expect(done.sort()).toEqual(['a', 'b', 'c']);
    expect(w.inFlight).toBe(0);
  });

  it('drain waits for work added while it waits, and a failure is reported, not thrown', async () => {
    const errors: unknown[] = [];
    const w = new BackgroundWork(4, (e) => errors.push(e));
    const done: string[] = [];
    await w.add(async () => {
      await later(10);
      await w.add(() => later(20).then(() => void done.push('late')));
    });
    await w.add(async () => {
      throw new Error('engine said no');
    });
    await w.drain();
    expect(done).toEqual(['late']);
    expect(errors.map((e) => (e as Error).message)).toEqual(['engine said no']);
  });
});
