// Run directories for the leaderboard tests, written the way real runs write them: the real
// orchestrator (executePlan) over fake scenario runs whose result.json is production's
// buildResult (test/runner/orchestrator/fakes.ts), and a gaia2-run root from the real phase runner.
import { join } from 'node:path';
import { RUN_DEFAULTS, type AgentSettings, type RunPlan } from '../../../runner/src/plan/plan.js';
import { resolveDataset } from '../../../runner/src/dataset/index.js';
import { executePlan } from '../../../runner/src/orchestrator/index.js';
import { writeScenario } from '../dataset/make-scenario.js';
import { fakeEngine, fakeRuns, recordingProgress, type Outcome } from '../orchestrator/fakes.js';

/** data/full: search a, b; time c; execution d. data/part: the same without d (as finishedRoot's). */
export function writeDatasets(root: string): { full: string; part: string } {
  for (const [set, ids] of [['full', ['search/a', 'search/b', 'time/c', 'execution/d']], ['part', ['search/a', 'search/b', 'time/c']]] as const) {
    for (const id of ids) writeScenario(join(root, 'data', set, `${id}.json`), id.split('/')[1]!);
  }
  return { full: join(root, 'data/full'), part: join(root, 'data/part') };
}

export interface RunSpec {
  dataset: string;
  out: string;
  agent?: AgentSettings['name'];
  image?: string;
  provider?: string | null;
  model?: string | null;
  passAt?: number;
  /** A judge model (its key given literally: never recorded). */
  judge?: string;
  errorsAsFailures?: boolean;
  decide: (id: string, run: number) => Outcome;
  /** Judged runs whose agent program failed these turns on its own. */
  failedTurns?: (id: string, run: number) => number[];
}

/** A `run-dataset` run (pass@1 dir or pass@N root) as the orchestrator writes it. */
export async function datasetRun(s: RunSpec): Promise<string> {
  const plan: RunPlan = {
    command: 'run-dataset',
    configPath: null,
    target: { kind: 'local', path: s.dataset, recursive: true, splits: null, subset: null, limit: null },
    agent: {
      name: s.agent ?? 'default', image: s.image ?? 'localhost/gaia2-agent:test', runtime: 'podman', provider: s.provider ?? null, model: s.model ?? null,
      apiKey: null, baseUrl: null, thinking: 'low', tools: 'shell', maxTokens: null, volumes: [], script: null,
    },
    judge: s.judge ? { provider: 'openai', model: s.judge, baseUrl: null, apiKey: { value: 'k', source: 'explicit' } } : null,
    run: { ...RUN_DEFAULTS, outputDir: s.out, passAt: s.passAt ?? 1, errorsAsFailures: s.errorsAsFailures ?? false },
  };
  const runs = fakeRuns((id, run) => s.decide(id, run), { ms: 1, ...(s.failedTurns ? { failedTurns: s.failedTurns } : {}) });
  await executePlan(plan, await resolveDataset(plan.target, { env: {} }), { engine: fakeEngine(), runScenario: runs.fn, progress: recordingProgress(), hostEnv: {} });
  return s.out;
}
