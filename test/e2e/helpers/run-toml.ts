// A TOML config run as `gaia2-runner run-config` runs it (load → dataset → orchestrator →
// real containers), keeping the container env the runner built for the first scenario so a
// test can check what the config turned into.
import { writeFileSync } from 'node:fs';
import type { ScenarioResult } from '@gaia2/contract';
import { loadRunConfig } from '../../../runner/src/config/resolve-toml.js';
import { resolveDataset } from '../../../runner/src/dataset/index.js';
import type { UnitBackend } from '../../../runner/src/engine/index.js';
import { executePlan } from '../../../runner/src/orchestrator/index.js';
import { runScenario, type ScenarioRunOptions } from '../../../runner/src/run/index.js';
import { TEST_LABEL } from './llm-run.js';

export async function runTomlConfig(engine: UnitBackend, file: string, lines: string[], hostEnv: Record<string, string>): Promise<{ result: ScenarioResult; env: Record<string, string> }> {
  writeFileSync(file, [...lines, ''].join('\n'));
  const plan = loadRunConfig(file, hostEnv);
  const ds = await resolveDataset(plan.target, { env: hostEnv });
  let env: Record<string, string> = {};
  const outcome = await executePlan(plan, ds, {
    engine,
    hostEnv,
    progress: { start() {}, done() {}, stop() {}, log() {} },
    runScenario: (o: ScenarioRunOptions) => {
      env = o.env;
      return runScenario({ ...o, labels: { ...o.labels, ...TEST_LABEL } });
    },
  });
  return { result: outcome.results[0]!, env };
}
