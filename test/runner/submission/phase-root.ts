// A finished gaia2-run root made by the real phase runner over fake scenario runs (what a
// run writes: result.json per run, run_config.json per run index, the reports).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IMAGE_FEATURES_LABEL, OUR_IMAGE_FEATURES } from '@gaia2/contract/features';
import type { DatasetFlags } from '../../../runner/src/config/cli-flags.js';
import { runPhases } from '../../../runner/src/phases/run-phases.js';
import type { PhaseName } from '../../../runner/src/plan/phases.js';
import { writeScenario } from '../dataset/make-scenario.js';
import { defaultRunFlags } from '../config/flag-defaults.js';
import { fakeEngine, fakeRuns, recordingProgress, type Outcome } from '../orchestrator/fakes.js';

export async function finishedRoot(decide: (id: string, run: number) => Outcome, phases: PhaseName[] = ['standard', 'noise'], runs = 3): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'submission-'));
  for (const id of ['a', 'b']) writeScenario(join(dir, `data/search/${id}.json`), id);
  writeScenario(join(dir, 'data/time/c.json'), 'c');
  const flags = { ...defaultRunFlags(''), agent: 'oracle', dataset: join(dir, 'data'), concurrency: '2', passAt: '1', revision: 'main', outputDir: join(dir, 'out') } as DatasetFlags;
  const engine = fakeEngine();
  engine.images.labels = async () => ({ [IMAGE_FEATURES_LABEL]: OUR_IMAGE_FEATURES });
  const f = fakeRuns((id, run) => decide(id, run), { ms: 1 });
  // The fake run writes result.json; add the event log a real run collects beside it.
  const run = f.fn;
  f.fn = async (o) => {
    const r = await run(o);
    mkdirSync(o.outputDir!, { recursive: true });
    writeFileSync(join(o.outputDir!, 'events.jsonl'), `{"t": 1760000400.0, "app": "AgentUserInterface", "fn": "send_message_to_user", "args": {"content": "done ${r.scenario_id}"}, "w": true, "ret": null}\n`);
    return r;
  };
  const quiet = () => undefined;
  await runPhases({ kind: 'flags', flags, env: {} }, phases, { root: join(dir, 'out'), runs, miniSubset: null, retry: false }, { out: quiet, err: quiet, env: {}, engine, runScenario: f.fn, progress: recordingProgress() });
  return join(dir, 'out');
}
