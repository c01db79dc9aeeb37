// Runs the built-in LLM agent in a real container against a scripted provider on the host's
// 127.0.0.1, through the runner's own path: plan from flags → buildBaseEnv (loopback URL to the
// host alias) → engine.openRun (relay on the bridge gateway) → runScenario.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NoiseSettings, ScenarioResult } from '@gaia2/contract';
import { planFromRunFlags } from '../../../runner/src/config/cli-flags.js';
import type { RunPlan } from '../../../runner/src/plan/plan.js';
import type { UnitBackend } from '../../../runner/src/engine/index.js';
import { buildBaseEnv } from '../../../runner/src/env/index.js';
import { runScenario } from '../../../runner/src/run/index.js';
import { startFakeLlm, type FakeFormat, type FakeLlm, type FakeScriptItem } from '../../helpers/fake-llm/index.js';

/** Every container these suites create carries this label (and is removed by runScenario). */
export const TEST_LABEL = { 'gaia2.test': 'llm-e2e' } as const;
export const KEY_VAR = 'LLM_E2E_API_KEY';

export const PROVIDER_FOR: Record<FakeFormat, string> = {
  'openai-chat': 'openai-compat',
  'openai-responses': 'openai',
  anthropic: 'anthropic',
  gemini: 'gemini',
};

export interface LlmRunCase {
  format: FakeFormat;
  tools: 'shell' | 'functions';
  stream: boolean;
  script: FakeScriptItem[];
  /** false: hand the container the env without relays (negative control). */
  relay?: boolean;
  /** The Noise phase's settings, as `--noise` / [noise] put them in the plan. */
  noise?: NoiseSettings;
}

export interface LlmRun {
  result: ScenarioResult;
  dir: string;
  fake: FakeLlm;
  /** BASE_URL as the container got it. */
  containerBaseUrl: string;
}

/** The plan `gaia2-runner run --agent default --base-url <fake>` would build. */
export function planFor(format: FakeFormat, baseUrl: string, scenario: string, image: string, apiKey: string, outputDir?: string): RunPlan {
  return planFromRunFlags(
    {
      scenario,
      image,
      agent: 'default',
      runtime: 'podman',
      adapterPort: '8090',
      timeout: '180',
      healthTimeout: '60',
      activityTimeout: '120',
      provider: PROVIDER_FOR[format],
      model: `fake-${format}`,
      apiKeyEnv: KEY_VAR,
      baseUrl,
      thinking: 'off',
      logLevel: 'INFO',
      notificationMode: 'message',
      network: 'bridge',
      ...(outputDir ? { outputDir } : {}),
    },
    { [KEY_VAR]: apiKey },
  );
}

export async function runWithFakeLlm(engine: UnitBackend, image: string, scenario: string, apiKey: string, c: LlmRunCase): Promise<LlmRun> {
  const fake = await startFakeLlm({ format: c.format, script: c.script });
  const dir = mkdtempSync(join(tmpdir(), `gaia2-llm-e2e-${c.format}-`));
  const plan = { ...planFor(c.format, fake.url, scenario, image, apiKey), noise: c.noise ?? null };
  try {
    const { result, env } = await runPlanInContainer(engine, plan, {
      outputDir: dir,
      hostEnv: { [KEY_VAR]: apiKey },
      extraEnv: { GAIA2_AGENT_TOOLS: c.tools, GAIA2_LLM_STREAM: c.stream ? '1' : '0' },
      relay: c.relay !== false,
      runId: `llm-e2e-${process.pid}`,
    });
    return { result, dir, fake, containerBaseUrl: env.BASE_URL ?? '' };
  } finally {
    await fake.close();
  }
}

/** One scenario run of a plan as the runner does it: container env, loopback relays, runScenario. */
export async function runPlanInContainer(
  engine: UnitBackend,
  plan: RunPlan,
  o: { outputDir: string; hostEnv?: Record<string, string>; extraEnv?: Record<string, string>; relay?: boolean; runId: string },
): Promise<{ result: ScenarioResult; env: Record<string, string> }> {
  if (plan.target.kind !== 'scenario') throw new Error('runPlanInContainer takes a single-scenario plan');
  const base = buildBaseEnv(plan, o.hostEnv ?? {});
  const relays = o.relay === false ? { env: base.env, close: async () => {} } : await engine.openRun({ runId: 'e2e', env: base.env, network: 'bridge' });
  try {
    const result = await runScenario({
      engine,
      image: plan.agent.image,
      scenarioFile: plan.target.scenario,
      outputDir: o.outputDir,
      env: { ...relays.env, ...o.extraEnv },
      agent: plan.agent.name,
      network: 'bridge',
      timeouts: { healthSeconds: plan.run.healthTimeout, scenarioSeconds: plan.run.timeout, activitySeconds: plan.run.activityTimeout },
      labels: { ...TEST_LABEL, 'gaia2.run-id': o.runId },
    });
    return { result, env: relays.env };
  } finally {
    await relays.close();
  }
}
