// A real world daemon in-process on the Shopping sample with Agent2Agent on (app_prop 1): the
// Shopping app is operated by an app agent whose model is a scripted provider on 127.0.0.1.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEventsJsonl } from '@gaia2/contract';
import type { A2aSettings } from '../../agent-image/src/a2a/index.js';
import type { NoiseSettings } from '@gaia2/contract/noise';
import { composeWorld } from '../../agent-image/src/main/compose/compose-world.js';
import { settingsFromEnv } from '../../agent-image/src/world/config.js';
import { startFakeLlm, type FakeScriptItem } from './fake-llm/index.js';

export const SHOPPING_SCENARIO = new URL('../../examples/scenarios/execution/exec_shopping_bottle_order.json', import.meta.url);
export const BOTTLE_ITEM = 'ececbe590b923620bc5384dc4ef7bd0e';
export const A2A_KEY = 'a2a-key-canary';

/**
 * `traceFile`: where the app agents' calls are traced (default: in the state dir); `noise`: the
 * Noise phase too, with `renames` as the scenario's augmentation_data.tool_names_mapping.
 */
export async function a2aShoppingWorld(script: FakeScriptItem[], traceFile?: string, o: { noise?: NoiseSettings; renames?: Record<string, string> } = {}) {
  const fake = await startFakeLlm({ format: 'openai-chat', script });
  const stateDir = mkdtempSync(join(tmpdir(), 'gaia2-a2a-'));
  const trace = traceFile ?? join(stateDir, 'app_agents_trace.jsonl');
  const a2a: A2aSettings = {
    appProp: 1,
    seed: null,
    maxSteps: 80,
    llm: { provider: 'openai-compat', model: 'fake-app-agent', baseUrl: fake.url, apiKey: A2A_KEY, thinking: 'off', traceFile: trace },
  };
  const scenario = JSON.parse(readFileSync(SHOPPING_SCENARIO, 'utf8'));
  if (o.renames) scenario.augmentation_data = { tool_names_mapping: o.renames };
  const composed = await composeWorld({
    scenario,
    stateDir,
    settings: { ...settingsFromEnv({ GAIA2_AGENT: 'scripted' }), ...(o.noise ? { noise: o.noise } : {}) },
    a2a,
  });
  composed.world.start();
  return {
    ...composed,
    fake,
    stateDir,
    eventsText: () => readFileSync(join(stateDir, 'events.jsonl'), 'utf8'),
    lines: () => parseEventsJsonl(readFileSync(join(stateDir, 'events.jsonl'), 'utf8')),
    trace: () => readFileSync(trace, 'utf8').trim().split('\n').map((l) => JSON.parse(l)),
  };
}
