// The sealed network end to end (issue T, item 1): our LLM agent in a real container, driven by
// a scripted provider through the model gateway, runs probe commands in its shell tool (as the
// user agent). Sealed (network = "bridge", the default), it cannot reach a web server on the
// host, another container, the cloud metadata address, an internet address or DNS, while its
// world's CLI and the gateway (every model call of the run) work; with network = "open" the same
// probe reaches the host's server. Runs on every engine of GAIA2_TEST_ENGINES.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planFromRunFlags } from '../../runner/src/config/cli-flags.js';
import { resolveDataset } from '../../runner/src/dataset/index.js';
import type { UnitBackend } from '../../runner/src/engine/index.js';
import { DEFAULT_IMAGE } from '../../runner/src/image/index.js';
import { executePlan } from '../../runner/src/orchestrator/index.js';
import { runScenario, type ScenarioRunOptions } from '../../runner/src/run/index.js';
import { SHELL_TOOL_NAME } from '../../agent-image/src/agents/default/shell-tool.js';
import { startFakeLlm, type FakeLlm } from '../helpers/fake-llm/index.js';
import { shellDriver, shellExchanges } from '../helpers/fake-llm/shell-driver.js';
import { oraclePlay, scriptFor } from './helpers/oracle-llm-script.js';
import { TEST_LABEL } from './helpers/llm-run.js';
import { connectE2eEngine, eachEngine } from './helpers/engines.js';

const root = join(import.meta.dirname, '..', '..');
const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
const KEY_VAR = 'SEALED_E2E_API_KEY';
const hostEnv = { [KEY_VAR]: 'sk-sealed-e2e-0123456789abcdef' };
const SCENARIO = 'execution/exec_shopping_bottle_order.json';

/** This machine's address as seen from a container (not loopback, not an engine bridge). */
function hostAddress(): string {
  const a = Object.values(networkInterfaces()).flat().find((i) => i && i.family === 'IPv4' && !i.internal && !/^10\.(88|2\d\d)\./.test(i.address));
  if (!a) throw new Error('this machine has no non-loopback IPv4 address to test from');
  return a.address;
}

/** One probe line per target: `NAME code=HTTP rc=EXIT` (curl: 7 = refused, 28 = timed out). */
const probe = (name: string, url: string) => `curl -s -m 4 -o /dev/null -w '${name} code=%{http_code}' ${url}; echo " rc=$?"`;

describe.each(eachEngine())('sealed network on %s', (_kind, e2e) => {
  let engine: UnitBackend;
  let docker: Docker;
  let hostServer: Server;
  let other: Docker.Container;
  const fakes: FakeLlm[] = [];
  const seen: Record<'bridge' | 'open', { results: string[]; statuses: string[]; sealed: unknown[]; requests: number }> = {} as never;

  beforeAll(async () => {
    engine = await connectE2eEngine(e2e);
    docker = new Docker({ socketPath: e2e.host.replace(/^unix:\/\//, '') });
    hostServer = createServer((_q, r) => r.end('host-server'));
    await new Promise<void>((r) => hostServer.listen(0, '0.0.0.0', r));
    const hostUrl = `http://${hostAddress()}:${(hostServer.address() as AddressInfo).port}/`;
    // another container on the same bridge network, serving HTTP
    other = await docker.createContainer({ Image: image, Entrypoint: ['python3', '-m', 'http.server', '8099'], Labels: { ...TEST_LABEL } });
    await other.start();
    const otherIp = (await other.inspect()).NetworkSettings.Networks?.podman?.IPAddress || Object.values((await other.inspect()).NetworkSettings.Networks ?? {})[0]?.IPAddress;
    expect(otherIp).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    const play = oraclePlay(join(root, 'test/fixtures/golden/cases/exec_shopping_bottle_order/oracle.events.jsonl'));
    const cli = (scriptFor(play, 'shell')[0]!.toolCalls![0]!.args as { command: string }).command;
    const commands = [
      'id -un',
      probe('host', hostUrl),
      probe('other', `http://${otherIp}:8099/`),
      probe('metadata', 'http://169.254.169.254/'),
      probe('internet', 'http://1.1.1.1/'),
      'getent hosts example.com; echo "dns rc=$?"',
      `${cli} >/dev/null; echo "cli rc=$?"`,
    ];
    const runOne = async (network: 'bridge' | 'open') => {
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
      seen[network] = { results: shellExchanges('anthropic', last.body, SHELL_TOOL_NAME).map((x) => x.result ?? ''), statuses: lines.map((l) => l.status), sealed: lines.map((l) => l.network_sealed), requests: fake.requests.length };
    };
    await Promise.all([runOne('bridge'), runOne('open')]);
  }, 240_000);

  afterAll(async () => {
    await Promise.all(fakes.map((f) => f.close()));
    await other?.remove({ force: true }).catch(() => {});
    await new Promise<void>((r) => (hostServer ? hostServer.close(() => r()) : r()));
    await engine?.close();
  });

  it('sealed: the agent reaches its world and the gateway, and nothing else (refused at once, not timed out)', () => {
    const s = seen.bridge;
    expect(s.statuses).toHaveLength(1);
    expect(s.statuses[0]).not.toBe('error');
    expect(s.sealed).toEqual([true]);
    expect(s.requests).toBeGreaterThanOrEqual(8); // every model call went through the gateway
    const text = s.results.join('\n');
    expect(text).toMatch(/^agent$/m);
    for (const name of ['host', 'other', 'metadata', 'internet']) expect(text).toMatch(new RegExp(`${name} code=000 rc=7\\b`));
    expect(text).toMatch(/dns rc=[1-9]/);
    expect(text).toMatch(/cli rc=0\b/);
  });

  it('open: the same probe reaches the host web server', () => {
    expect(seen.open.sealed).toEqual([false]);
    const text = seen.open.results.join('\n');
    expect(text).toMatch(/^agent$/m);
    expect(text).toMatch(/host code=200 rc=0\b/);
    expect(text).toMatch(/other code=200 rc=0\b/);
    expect(text).toMatch(/cli rc=0\b/);
  });
});
