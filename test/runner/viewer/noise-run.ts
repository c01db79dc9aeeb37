// A Noise-phase scenario run directory made by the real world daemon in-process (scripted
// agent, seeded tool failure, background events due during the run): the artifacts a
// container run collects (events.jsonl, noise.jsonl, daemon_status.json, judgments) plus a
// result.json from its verdict.
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connectToDaemon } from '../../../agent-image/src/agents/client.js';
import { parseScript, runScripted } from '../../../agent-image/src/agents/scripted/index.js';
import { appForCli } from '../../../agent-image/src/apps/catalog.js';
import { DEFAULT_NOISE, type NoiseSettings } from '@gaia2/contract/noise';
import { ToolNoise } from '../../../agent-image/src/noise/index.js';
import { composeWorld } from '../../../agent-image/src/main/compose/compose-world.js';
import { serveAgentSocket } from '../../../agent-image/src/world/sockets.js';
import { readGolden } from '../../agent-image/world/golden.js';
import { tempStateDir, testSettings } from '../../agent-image/world/run-world.js';

const SCENARIO = 'scenarios/time/time_shopping_price_drop.json';
export const ADD = ['shopping', 'add-to-cart', '--item-id', '979ebae459727b68d14bf48722b0eb16', '--quantity', '1'];
const CHECKOUT = ['shopping', 'checkout'];

/** Writes the run under `runDir/<id>`; returns the scenario dir. */
export async function writeNoiseRun(runDir: string, id: string): Promise<string> {
  const scenario = JSON.parse(readGolden(SCENARIO));
  scenario.metadata.definition.duration = 60; // background events arrive within the run
  const ta = { ...DEFAULT_NOISE.tool_augmentation!, tool_failure_probability: 0.5 };
  // A seed whose first add-to-cart fails, the retry and the checkout go through (each tool has its own stream).
  const shopping = appForCli('shopping')!;
  const seed = [...Array(64).keys()].find((s) => {
    const t = new ToolNoise({ ...ta, seed: s }, scenario);
    return t.draw(ADD, shopping) !== null && t.draw(ADD, shopping) === null && t.draw(CHECKOUT, shopping) === null;
  })!;
  const noise: NoiseSettings = { env_events: DEFAULT_NOISE.env_events, tool_augmentation: { ...ta, seed } };
  const stateDir = tempStateDir();
  const composed = await composeWorld({ scenario, scenarioFile: SCENARIO, stateDir, settings: testSettings({ agent: 'scripted', noise }) });
  const socketPath = join(stateDir, 'agent.sock');
  const server = await serveAgentSocket(composed.world, socketPath, composed.tools);
  composed.world.start();
  let status;
  try {
    const conn = await connectToDaemon({ agent: 'scripted', socketPath });
    const script = parseScript(JSON.stringify([{ commands: [ADD, ADD, CHECKOUT], reply: 'Bought.' }]));
    [, status] = await Promise.all([runScripted(conn, script).catch(() => undefined), composed.world.finished()]);
  } finally {
    server.close();
  }
  const dir = join(runDir, ...id.split('/'));
  mkdirSync(dir, { recursive: true });
  for (const [from, to] of [['events.jsonl', 'events.jsonl'], ['noise.jsonl', 'noise.jsonl'], ['daemon_status.json', 'daemon_status.json'], ['judgments.jsonl', 'daemon_judgments.jsonl']])
    if (existsSync(join(stateDir, from))) copyFileSync(join(stateDir, from), join(dir, to));
  const success = status!.judgment?.success ?? null;
  writeFileSync(
    join(dir, 'result.json'),
    JSON.stringify({ scenario_id: id.split('/').pop(), success, status: success === true ? 'pass' : success === false ? 'fail' : 'error', split: 'time', failure_reasons: status!.judgment?.failure_reason ? [status!.judgment.failure_reason] : [], judge_mode: 'hard-only' }),
  );
  if (!readFileSync(join(dir, 'noise.jsonl'), 'utf8').includes('tool_failure')) throw new Error('fixture: no tool failure was injected');
  return dir;
}
