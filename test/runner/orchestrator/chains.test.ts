// The chains of a dataset run: run-major tasks per chain, and --retry resuming each chain at
// its first scenario without a verdict; a chain's second step gets the first one's carry, as
// files at create or, on a backend without them, through the image with GAIA2_CARRY_HOME.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildChainTasks, chainRuns, runChain, selectChainsForRetry, type ChainStepRun } from '../../../runner/src/orchestrator/chains.js';
import type { ContainerHandle, TreeEntry, UnitBackend } from '../../../runner/src/engine/index.js';
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

describe('runChain', () => {
  const file = (path: string, text: string): TreeEntry => ({ path, type: 'file', mode: 0o644, uid: 999, gid: 999, content: Buffer.from(text) });
  async function play(filesAtCreate: boolean) {
    const out = mkdtempSync(join(tmpdir(), 'chains-run-'));
    const data = mkdtempSync(join(tmpdir(), 'chains-data-'));
    const entries = ['a', 'b'].map((id) => {
      writeFileSync(join(data, `${id}.json`), '{"apps": [{"name": "Contacts", "app_state": {}}]}');
      return { ...entry(id), file: join(data, `${id}.json`) };
    });
    const [task] = buildChainTasks([{ universeId: 'u', entries }], 1, out);
    // the image's reader (GET /carry) is used where the unit has no readTree (a Pod)
    const image = { carry: async () => ({ state: [file('contacts.json', '{"n": 1}')], home: [{ path: 'notes', type: 'dir' as const, mode: 0o755, uid: 1000, gid: 1000 }, file('notes/a.txt', 'x')] }) };
    const steps: ChainStepRun[] = [];
    const engine = { capabilities: { filesAtCreate } } as UnitBackend;
    await runChain(task!, {
      engine,
      log: () => {},
      runTask: async (_t, step) => {
        steps.push(step);
        await step.beforeRemove({ id: 'p', name: 'p' } as ContainerHandle, image);
        return { success: true, status: 'pass' } as never;
      },
    });
    return steps;
  }

  it('hands the first unit’s carry to the second: late through the image, the home in its upload folder', async () => {
    const [first, second] = await play(false);
    // every step's carry is read through the image, whose daemon may then read the agent's private files
    expect(first!.env).toEqual({ GAIA2_CARRY_READ: '1' });
    expect(second!.fields.carry_error).toBeUndefined();
    expect(second!.env).toEqual({ GAIA2_CARRY_READ: '1', GAIA2_CARRY_HOME: '1' });
    expect(second!.files.map((f) => f.path)).toEqual(['/var/gaia2/carry-home.tar']);
    expect(second!.content!.toString()).toContain('"app_state": {"n": 1}');
  });

  it('with files at create the home goes straight into place, no variable', async () => {
    const [, second] = await play(true);
    expect(second!.env).toEqual({});
    expect(second!.files.map((f) => f.path)).toEqual(['/home/agent/notes', '/home/agent/notes/a.txt']);
  });
});
