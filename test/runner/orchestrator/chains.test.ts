// The chains of a dataset run: run-major tasks per chain, and --retry resuming each chain at
// its first scenario without a verdict.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildChainTasks, chainRuns, selectChainsForRetry } from '../../../runner/src/orchestrator/chains.js';
import type { ScenarioEntry } from '../../../runner/src/dataset/index.js';

const entry = (id: string): ScenarioEntry => ({ file: `/d/search/${id}.json`, id, relDir: 'search', split: 'search', startTime: null, duration: null, sha256: '', bytes: 0, notifyTask: null });
const chains = [
  { universeId: 'u1', entries: [entry('a'), entry('b'), entry('c')] },
  { universeId: 'u2', entries: [entry('d')] },
];

describe('buildChainTasks', () => {
  it('gives each run_k its own chains, checkpoints under run_k', () => {
    const t = buildChainTasks(chains, 2, '/out');
    expect(t.map((c) => [c.universeId, c.runDir, c.steps.map((s) => s.label)])).toEqual([
      ['u1', '/out/run_1', ['run_1/search/a', 'run_1/search/b', 'run_1/search/c']],
      ['u2', '/out/run_1', ['run_1/search/d']],
      ['u1', '/out/run_2', ['run_2/search/a', 'run_2/search/b', 'run_2/search/c']],
      ['u2', '/out/run_2', ['run_2/search/d']],
    ]);
    expect(buildChainTasks(chains, 1, '/out')[0]!.runDir).toBe('/out');
    expect(chainRuns(t)).toBe(8);
  });
});

describe('selectChainsForRetry', () => {
  it('resumes at the first scenario without a verdict and keeps the judged ones before it', () => {
    const out = mkdtempSync(join(tmpdir(), 'chains-retry-'));
    const result = (id: string, r: object) => {
      mkdirSync(join(out, 'search', id), { recursive: true });
      writeFileSync(join(out, 'search', id, 'result.json'), JSON.stringify(r));
    };
    result('a', { success: true, status: 'pass' });
    result('b', { success: null, status: 'error' });
    result('c', { success: false, status: 'fail' }); // played after an error: played again
    result('d', { success: false, status: 'fail' });
    const sel = selectChainsForRetry(buildChainTasks(chains, 1, out));
    expect(sel.rerun.map((c) => [c.universeId, c.startAt])).toEqual([['u1', 1]]);
    expect([sel.passed, sel.failed]).toEqual([1, 1]);
    expect(chainRuns(sel.rerun)).toBe(2);
  });
});
