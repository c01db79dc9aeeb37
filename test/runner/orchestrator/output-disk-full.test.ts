// A full output disk mid-run (a real tmpfs of 1 MiB as the output directory, filled by the
// second run): the run stops with one clear error naming the file, nothing new starts, the
// containers are removed, what was written stays whole, and --retry completes the rest once
// there is space. Needs root for the mount (as CI runs).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { resolveDataset } from '../../../runner/src/dataset/index.js';
import { executePlan } from '../../../runner/src/orchestrator/index.js';
import { exitCodeFor } from '../../../runner/src/cli/errors.js';
import { writeScenario } from '../dataset/make-scenario.js';
import { fakeEngine, fakeRuns, localPlan, recordingProgress } from './fakes.js';

let root: string;
let out: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'orch-full-'));
  out = join(root, 'out');
  execFileSync('mkdir', ['-p', out]);
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', out]);
  for (const [f, id] of [['search/s_a.json', 's_a'], ['search/s_b.json', 's_b'], ['time/t_a.json', 't_a']] as const) writeScenario(join(root, 'data', f), id);
});
afterAll(() => {
  execFileSync('umount', [out]);
  rmSync(root, { recursive: true, force: true });
});

/** Writes into the output disk until it is full. */
function fillDisk(): void {
  const chunk = Buffer.alloc(64 * 1024, 1);
  for (let i = 0; ; i++) {
    try {
      writeFileSync(join(out, `filler-${i}`), chunk);
    } catch {
      return;
    }
  }
}

const filesUnder = (d: string): string[] => readdirSync(d, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));

it('the disk fills during a run: one clear error naming the file, nothing new starts, containers removed, results kept; --retry completes the rest', async () => {
  const plan = localPlan(join(root, 'data'), out, { concurrency: 1 });
  const engine = fakeEngine();
  const runs = fakeRuns((id) => {
    if (id === 's_b') fillDisk();
    return 'pass';
  }, { engine });
  const ds = await resolveDataset(plan.target, { env: {} });
  const progress = recordingProgress();
  const err = await executePlan(plan, ds, { engine, runScenario: runs.fn, progress, hostEnv: {} }).then(() => null, (e: unknown) => e as Error);
  expect(err?.name).toBe('OutputWriteError');
  expect(exitCodeFor(err)).toBe(3);
  expect(err?.message).toMatch(/cannot write .*search\/s_b\/.*no space left on the device \(ENOSPC\).*--retry/);
  expect(progress.lines.filter((l) => l.includes('No new run starts'))).toHaveLength(1); // said once
  expect(progress.lines.some((l) => l.startsWith('Stopped: ') && l.includes('Resume with --retry'))).toBe(true); // not 'Interrupted': nobody pressed Ctrl-C
  expect(runs.calls.map((c) => c.scenarioFile.replace(/^.*\//, ''))).toEqual(['s_a.json', 's_b.json']); // t_a never started
  expect(engine.containers).toHaveLength(0);
  expect(JSON.parse(readFileSync(join(out, 'search/s_a/result.json'), 'utf8')).status).toBe('pass');
  expect(filesUnder(out).filter((f) => f.endsWith('.tmp'))).toEqual([]); // no half-written temp file holds space

  for (const f of filesUnder(out).filter((f) => f.includes('filler-'))) rmSync(f);
  const again = fakeRuns(() => 'pass', { engine });
  const outcome = await executePlan({ ...plan, run: { ...plan.run, retry: true } }, ds, { engine, runScenario: again.fn, progress: recordingProgress(), hostEnv: {} });
  expect(again.calls.map((c) => c.scenarioFile.replace(/^.*\//, ''))).toEqual(['s_b.json', 't_a.json']);
  expect(outcome.report.overall).toMatchObject({ runs: 3, passed: 3, errors: 0 });
});
