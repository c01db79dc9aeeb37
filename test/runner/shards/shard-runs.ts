// Shard folders as real runs write them: `run-dataset --shard-id I --num-shards N --output-dir
// <out>` through the real plan, dataset split, orchestrator and viewer, the engine faked
// (test/runner/orchestrator/fakes.ts builds each result.json the way a real run does).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planFromDatasetFlags, type DatasetFlags } from '../../../runner/src/config/cli-flags.js';
import { resolveDataset } from '../../../runner/src/dataset/index.js';
import { executePlan } from '../../../runner/src/orchestrator/index.js';
import { buildViewer } from '../../../runner/src/viewer/index.js';
import { writeScenario } from '../dataset/make-scenario.js';
import { defaultRunFlags } from '../config/flag-defaults.js';
import { fakeEngine, fakeRuns, recordingProgress, type Outcome } from '../orchestrator/fakes.js';

export const IDS = ['s_a', 's_b', 's_c', 't_a', 't_b'];
export const keyOf = (id: string): string => `${id.startsWith('s') ? 'search' : 'time'}/${id}`;

/** A dataset of IDS under <root>/data; s_b fails, the rest pass (verdicts a merge must keep). */
type RunShard = (index: number, count: number, extra?: Partial<DatasetFlags>, decide?: (id: string) => Outcome) => Promise<string>;

export function shardWorkspace(): { root: string; out: string; runShard: RunShard } {
  const root = mkdtempSync(join(tmpdir(), 'aggregate-'));
  const out = join(root, 'out');
  for (const id of IDS) writeScenario(join(root, 'data', `${keyOf(id)}.json`), id);
  const verdict = (id: string): Outcome => (id === 's_b' ? 'fail' : 'pass');
  /** One shard's run (`decide` replaces the verdicts); returns its folder. */
  const runShard: RunShard = async (index, count, extra = {}, decide = verdict) => {
    const { scenario: _s, ...agent } = defaultRunFlags('');
    const flags: DatasetFlags = { ...agent, agent: 'oracle', dataset: join(root, 'data'), concurrency: '2', passAt: '1', revision: 'main', outputDir: out, shardId: String(index), numShards: String(count), ...extra };
    const plan = planFromDatasetFlags(flags, {});
    const ds = await resolveDataset(plan.target, { env: {} });
    await executePlan(plan, ds, { engine: fakeEngine(), runScenario: fakeRuns((id) => decide(id)).fn, progress: recordingProgress(), hostEnv: {} });
    await buildViewer(plan.run.outputDir!); // as runSession does after every run
    return plan.run.outputDir!;
  };
  return { root, out, runShard };
}
