// The Kenji adaptability scenario played by the scripted agent with its own wording
// (kenji-script.ts), in a real container whose judge is reached on the host's 127.0.0.1
// through the runner's relay (llm-run.ts's runPlanInContainer): the judge suites differ only in the judge flags, the host's
// variables and the double they start.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ScenarioResult } from '@gaia2/contract';
import { planFromRunFlags, type AgentFlags } from '../../../runner/src/config/cli-flags.js';
import type { UnitBackend } from '../../../runner/src/engine/index.js';
import { DEFAULT_IMAGE } from '../../../runner/src/image/index.js';
import { KENJI_REWORDED } from './kenji-script.js';
import { runPlanInContainer } from './llm-run.js';

const root = join(import.meta.dirname, '..', '..', '..');
const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
export const KENJI_SCENARIO = join(root, 'examples/scenarios/adaptability/adapt_chats_kenji_sync.json');

export interface KenjiJudgedOptions {
  /** The judge's flags (provider, model, base URL, …). */
  judgeFlags: Partial<AgentFlags>;
  /** The host's variables the plan reads keys from. */
  hostEnv: Record<string, string>;
  /** Variables set in the container as they are, bypassing the runner's checks. */
  containerEnv?: Record<string, string>;
  /** Names the test's containers and temporary directory. */
  label: string;
}

export async function runKenjiJudged(engine: UnitBackend, o: KenjiJudgedOptions): Promise<ScenarioResult> {
  const dir = mkdtempSync(join(tmpdir(), `gaia2-${o.label}-`));
  const scriptFile = join(dir, 'script.json');
  writeFileSync(scriptFile, JSON.stringify(KENJI_REWORDED));
  const plan = planFromRunFlags(
    {
      scenario: KENJI_SCENARIO, image, agent: 'scripted', script: scriptFile, runtime: 'podman', adapterPort: '8090',
      timeout: '180', healthTimeout: '60', activityTimeout: '120', thinking: 'off', logLevel: 'INFO',
      notificationMode: 'message', network: 'bridge',
      ...o.judgeFlags,
    },
    o.hostEnv,
  );
  const { result } = await runPlanInContainer(engine, plan, {
    outputDir: join(dir, 'out'),
    hostEnv: o.hostEnv,
    ...(o.containerEnv ? { extraEnv: o.containerEnv } : {}),
    runId: `${o.label}-${process.pid}`,
  });
  return result;
}
