import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { ScenarioResult } from '@gaia2/contract/result';

// Counts the rewrites while still writing the files.
const writes = vi.hoisted(() => ({ n: 0, failNext: false }));
vi.mock('../../../runner/src/fsutil/atomic.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../runner/src/fsutil/atomic.js')>();
  return {
    ...real,
    writeFileAtomic: async (path: string, data: string | Buffer) => {
      writes.n++;
      await new Promise((r) => setTimeout(r, 5)); // a write takes a while, as on a busy disk
      if (writes.failNext) {
        writes.failNext = false;
        throw new Error('disk full');
      }
      return real.writeFileAtomic(path, data);
    },
  };
});
const { ResultsBook } = await import('../../../runner/src/orchestrator/results-file.js');

const result = (id: string, run: number): ScenarioResult => ({ scenario_id: id, success: true, status: 'pass', run_index: run }) as ScenarioResult;

describe('ResultsBook', () => {
  it('every flush resolves with its result in the files; runs finishing during a rewrite share the next one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'results-book-'));
    const book = new ResultsBook(dir, 2, null);
    writes.n = 0;
    const done = Array.from({ length: 40 }, (_, i) => {
      const id = `s${String(i % 20).padStart(2, '0')}`;
      const run = i < 20 ? 1 : 2;
      book.set(`${run}/${id}`, run, result(id, run));
      return book.flush().then(() => {
        const text = readFileSync(join(dir, `run_${run}`, 'results.jsonl'), 'utf8');
        expect(text).toContain(`"scenario_id":"${id}"`);
      });
    });
    await Promise.all(done);
    const lines = readFileSync(join(dir, 'results.jsonl'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(40);
    expect(lines.map((l) => JSON.parse(l).run_index)).toEqual([...Array(20).fill(1), ...Array(20).fill(2)]); // key order
    expect(readFileSync(join(dir, 'run_2', 'results.jsonl'), 'utf8').trim().split('\n')).toHaveLength(20);
    // 40 flushes, but at most two rewrites (3 files each) instead of 40
    expect(writes.n).toBeLessThanOrEqual(2 * 3);
    expect(writes.n % 3).toBe(0);
  });

  it('a failed rewrite rejects its own flush, and the next flush still writes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'results-book-'));
    const book = new ResultsBook(dir, 1, null);
    book.set('a', null, result('a', 1));
    writes.failNext = true;
    await expect(book.flush()).rejects.toThrow('disk full');
    book.set('b', null, result('b', 1));
    await book.flush();
    expect(readFileSync(join(dir, 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l).scenario_id)).toEqual(['a', 'b']);
  });
});
