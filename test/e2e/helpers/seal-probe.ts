// One run of our LLM agent whose shell tool runs probe commands (issue T, sealed networks): a
// scripted provider behind the model gateway makes it curl each target, look a name up and call
// its world's CLI, on the engine given, with network "bridge" (sealed) or "open". Shared by
// sealed-network.test.ts (local engines) and remote-engine.test.ts (an engine on another host).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planFromRunFlags } from '../../../runner/src/config/cli-flags.js';
import { resolveDataset } from '../../../runner/src/dataset/index.js';
import type { UnitBackend } from '../../../runner/src/engine/index.js';
import { executePlan } from '../../../runner/src/orchestrator/index.js';
import { runScenario, type ScenarioRunOptions } from '../../../runner/src/run/index.js';
import { SHELL_TOOL_NAME } from '../../../agent-image/src/agents/default/shell-tool.js';
import { startFakeLlm, type FakeLlm } from '../../helpers/fake-llm/index.js';
import { shellDriver, shellExchanges } from '../../helpers/fake-llm/shell-driver.js';
import { oraclePlay, scriptFor } from './oracle-llm-script.js';
import { TEST_LABEL } from './llm-run.js';

const root = join(import.meta.dirname, '..', '..', '..');
const KEY_VAR = 'SEALED_E2E_API_KEY';
const hostEnv = { [KEY_VAR]: 'sk-sealed-e2e-0123456789abcdef' };
const SCENARIO = 'execution/exec_shopping_bottle_order.json';

/** One probe line per target: `NAME code=HTTP rc=EXIT` (curl: 7 = refused, 28 = timed out). */
const probe = (name: string, url: string) => `curl -s -m 4 -o /dev/null -w '${name} code=%{http_code}' ${url}; echo " rc=$?"`;

export interface SealProbeRun {
  /** The shell tool's outputs, in order. */
  results: string[];
  statuses: string[];
  sealed: unknown[];
  /** Model calls the provider double answered (all of them through the gateway). */
  requests: number;
}

/** Runs the probe sample once; `targets` are name → URL (e.g. host, other, metadata, internet). */
export async function runSealProbe(engine: UnitBackend, image: string, network: 'bridge' | 'open', targets: Record<string, string>, fakes: FakeLlm[]): Promise<SealProbeRun> {
  const play = oraclePlay(join(root, 'test/fixtures/golden/cases/exec_shopping_bottle_order/oracle.events.jsonl'));
  const cli = (scriptFor(play, 'shell')[0]!.toolCalls![0]!.args as { command: string }).command;
  const commands = [
    'id -un',
    ...Object.entries(targets).map(([name, url]) => probe(name, url)),
    'getent hosts example.com; echo "dns rc=$?"',
    `${cli} >/dev/null; echo "cli rc=$?"`,
  ];
  const driver = shellDriver({ format: 'anthropic', tool: SHELL_TOOL_NAME, args: (command) => ({ command }) }, [{ when: '', commands, reply: 'Done.' }]);
  const fake = await startFakeLlm({ format: 'anthropic', respond: (req) => driver.respond(req) });
  fakes.push(fake);
  const out = join(mkdtempSync(join(tmpdir(), `gaia2-sealed-${network}-`)), 'out');
  const plan = planFromRunFlags(
    { image, runtime: 'podman', adapterPort: '8090', timeout: '120', healthTimeout: '60', activityTimeout: '90', thinking: 'off', logLevel: 'INFO', notificationMode: 'message', network, agent: 'default', provider: 'anthropic', model: 'claude-sonnet-4-20250514', apiKeyEnv: KEY_VAR, baseUrl: fake.url, scenario: join(root, 'examples/scenarios', SCENARIO), outputDir: out },
    hostEnv,
  );
  const ds = await resolveDataset(plan.target, { env: hostEnv });
  await executePlan(plan, ds, {
    engine,
    hostEnv,
    progress: { start() {}, done() {}, stop() {}, log() {} },
    runScenario: (o: ScenarioRunOptions) => runScenario({ ...o, env: { ...o.env, GAIA2_AGENT_TOOLS: 'shell' }, labels: { ...o.labels, ...TEST_LABEL } }),
  });
  const last = fake.requests.at(-1)!;
  const lines = readFileSync(join(out, 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { status: string; network_sealed?: boolean });
  return { results: shellExchanges('anthropic', last.body, SHELL_TOOL_NAME).map((x) => x.result ?? ''), statuses: lines.map((l) => l.status), sealed: lines.map((l) => l.network_sealed), requests: fake.requests.length };
}
