// Issue H acceptance, remote engines: a real engine on another host — a podman API service in
// a network namespace with its own address (scripts/remote-engine.sh) — driven from this host
// through DOCKER_HOST over plain TCP, TLS with client certificates and SSH. The runner reaches
// each container's adapter on the engine host's address (TCP) or through an SSH forward, moves
// files through the engine API, relays a model endpoint on its own loopback to the remote
// containers, keeps the provider key out of everything the engine host receives (the model
// gateway), and leaves nothing behind; bad DOCKER_HOST values fail with clear messages and
// without touching a finished run.
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectEngine, type UnitBackend, type ContainerSpec } from '../../runner/src/engine/index.js';
import { DEFAULT_IMAGE } from '../../runner/src/image/index.js';
import { scriptFor, oraclePlay } from './helpers/oracle-llm-script.js';
import { runWithFakeLlm } from './helpers/llm-run.js';
import { startRecordingFront, startRemoteEngine, stopRemoteEngine, sshEnv, sshSocketEnv, tlsEnv, type RemoteEngineSettings } from './helpers/remote-engine.js';
import { say, startFakeLlm, type FakeLlm } from '../helpers/fake-llm/index.js';
import { runSealProbe } from './helpers/seal-probe.js';
import { findAdapter } from '../../runner/src/agents/index.js';
import { layerTag } from '../../runner/src/image/agent-layer.js';
import { readResults, runSingleSample } from './agents/helpers/third-party-run.js';
import { AGENTS } from './agents/helpers/agents-under-test.js';
import { CANARY, CASES, dockerAt, executeGateway, gatewayPlan, KEY_VAR, lookInside, spying, subset, type ContainerLook } from './helpers/gateway-canary.js';
import { phaseModel } from './helpers/phase-model.js';

const root = join(import.meta.dirname, '..', '..');
const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
const samplesDir = join(root, 'examples/scenarios');
const samples = readdirSync(samplesDir).flatMap((split) => readdirSync(join(samplesDir, split)).map((f) => ({ split, id: f.replace(/\.json$/, '') })));
const bottle = join(samplesDir, 'execution/exec_shopping_bottle_order.json');
const play = oraclePlay(join(root, 'test/fixtures/golden/cases/exec_shopping_bottle_order/oracle.events.jsonl'));

let s: RemoteEngineSettings;
let startedHere = false;
const engines: UnitBackend[] = [];

beforeAll(() => {
  ({ settings: s, startedHere } = startRemoteEngine(image));
}, 600_000);

// Every case leaves the engine as it found it (a leak shows on the case that caused it).
afterEach(async () => {
  const e = await remote({ DOCKER_HOST: s.DOCKER_HOST_TCP });
  expect(await left(e, {})).toEqual([]);
});

afterAll(async () => {
  await Promise.all(engines.map((e) => e.close()));
  if (startedHere) stopRemoteEngine();
}, 120_000);

/** Only the engine settings each case gives: nothing inherited from this shell. */
function baseEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, GAIA2_RUNNER_FROM_SOURCE: '1' };
  for (const k of ['DOCKER_HOST', 'DOCKER_TLS_VERIFY', 'DOCKER_TLS', 'DOCKER_CERT_PATH', 'GAIA2_SSH_IDENTITY', 'GAIA2_SSH_KNOWN_HOSTS', 'SSH_AUTH_SOCK']) delete env[k];
  return env;
}

function cli(args: string[], env: Record<string, string>) {
  return spawnSync(process.execPath, [join(root, 'bin/gaia2-runner.mjs'), ...args], { cwd: root, env: { ...baseEnv(), ...env }, encoding: 'utf8', timeout: 600_000 });
}

async function remote(env: Record<string, string>): Promise<UnitBackend> {
  const e = await connectEngine({ env: { ...baseEnv(), ...env } });
  engines.push(e);
  return e;
}

function results(out: string): Array<{ scenario_id: string; status: string; success: boolean | null }> {
  return readFileSync(join(out, 'results.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

/** The sample scenarios (all 12, or one split), three at a time, through `gaia2-runner run-dataset` with this engine. */
function runSamples(env: Record<string, string>, split?: string): string {
  const out = mkdtempSync(join(tmpdir(), 'gaia2-remote-e2e-'));
  const r = cli(['run-dataset', '-d', samplesDir, ...(split ? ['--splits', split] : []), '--agent', 'oracle', '-i', image, '--output-dir', out, '-j', '3', '--health-timeout', '60'], env);
  expect(r.status, r.stderr).toBe(0);
  expect(r.stderr.split('\n').filter((l) => /remove failed|could not/i.test(l))).toEqual([]);
  const got = results(out);
  const want = samples.filter((x) => !split || x.split === split);
  expect(got.map((x) => x.scenario_id).sort()).toEqual(want.map((x) => x.id).sort());
  for (const x of got) expect({ id: x.scenario_id, status: x.status, success: x.success }).toEqual({ id: x.scenario_id, status: 'pass', success: true });
  // Artifacts came back through the engine API: out/<split>/<id>/….
  for (const x of want) expect(JSON.parse(readFileSync(join(out, x.split, x.id, 'daemon_status.json'), 'utf8')).status).toBe('complete');
  return out;
}

describe('remote engine over TCP', () => {
  let finished: string;

  it('runs the 12 oracle samples 12/12 and leaves no container behind', async () => {
    finished = runSamples({ DOCKER_HOST: s.DOCKER_HOST_TCP });
    const e = await remote({ DOCKER_HOST: s.DOCKER_HOST_TCP });
    expect(await left(e)).toEqual([]);
  }, 600_000);

  it('describes itself as remote, by its address', async () => {
    const e = await remote({ DOCKER_HOST: s.DOCKER_HOST_TCP });
    expect(await e.describe()).toMatchObject({ kind: 'podman', endpoint: s.DOCKER_HOST_TCP, remote: true });
  });

  it('relays a model endpoint on the runner’s loopback to a remote container (LLM agent, fake provider)', async () => {
    const e = await remote({ DOCKER_HOST: s.DOCKER_HOST_TCP });
    const run = await runWithFakeLlm(e, image, bottle, `sk-remote-${randomBytes(6).toString('hex')}`, {
      format: 'openai-chat', tools: 'shell', stream: false, script: scriptFor(play, 'shell'),
    });
    // The container got the runner's address on the route to the engine host, not an alias
    // of its own host (where nothing of the runner listens).
    expect(run.containerBaseUrl).toMatch(new RegExp(`^http://${s.GAIA2_REMOTE_HOST_SIDE.replace(/\./g, '\\.')}:\\d+/`));
    expect(run.fake.requests.length).toBeGreaterThan(play.actions.length);
    expect(run.result.error ?? null).toBeNull();
    expect(run.result.status).toBe('pass');
  }, 300_000);

  it('serves the relay to the engine host only', async () => {
    const e = await remote({ DOCKER_HOST: s.DOCKER_HOST_TCP });
    const server = createServer((_q, res) => res.end('model')).listen(0, '127.0.0.1');
    await once(server, 'listening');
    const services = await e.openRun({ runId: 'e2e', env: { BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` }, network: 'bridge' });
    try {
      const relay = new URL(services.env.BASE_URL!);
      expect(relay.hostname).toBe(s.GAIA2_REMOTE_HOST_SIDE);
      // From the engine host (its address, as its containers' NAT presents them): served.
      // (asynchronously: the relay runs in this process)
      const fromEngine = await promisify(execFile)('nsenter', [`--net=${s.GAIA2_REMOTE_NETNS}`, 'curl', '-sf', '--max-time', '5', `${relay.origin}/v1`], { encoding: 'utf8' });
      expect(fromEngine.stdout).toBe('model');
      // From any other address (here the runner's own veth address): dropped.
      const other = await new Promise<string>((resolve) => {
        const c = connect({ host: relay.hostname, port: Number(relay.port), localAddress: s.GAIA2_REMOTE_HOST_SIDE });
        let got = '';
        c.on('connect', () => c.write('GET /v1 HTTP/1.1\r\nHost: x\r\n\r\n'));
        c.on('data', (d) => (got += d));
        c.on('close', () => resolve(got));
        c.on('error', () => resolve(got));
      });
      expect(other).toBe('');
    } finally {
      await services.close();
      server.close();
    }
  });

  it("seals a run there: the agent reaches its world and the relayed gateway, not the runner host's other ports, a metadata or an internet address; open reaches the runner host", async () => {
    const e = await remote({ DOCKER_HOST: s.DOCKER_HOST_TCP });
    const server = createServer((_q, res) => res.end('runner-host')).listen(0, '0.0.0.0');
    await once(server, 'listening');
    const fakes: FakeLlm[] = [];
    try {
      const targets = { host: `http://${s.GAIA2_REMOTE_HOST_SIDE}:${(server.address() as AddressInfo).port}/`, metadata: 'http://169.254.169.254/', internet: 'http://1.1.1.1/' };
      const [sealed, open] = await Promise.all([runSealProbe(e, image, 'bridge', targets, fakes), runSealProbe(e, image, 'open', targets, fakes)]);
      expect(sealed.statuses).toEqual([expect.not.stringMatching(/^error$/)]);
      expect(sealed.sealed).toEqual([true]);
      expect(sealed.requests).toBeGreaterThanOrEqual(7); // every model call through the relay to the gateway
      const text = sealed.results.join('\n');
      expect(text).toMatch(/^agent$/m);
      for (const name of Object.keys(targets)) expect(text).toMatch(new RegExp(`${name} code=000 rc=7\\b`));
      expect(text).toMatch(/dns rc=[1-9]/);
      expect(text).toMatch(/cli rc=0\b/);
      // the same probe unsealed: the runner host's server answers, so the refusal above is the seal's
      expect(open.sealed).toEqual([false]);
      expect(open.results.join('\n')).toMatch(/host code=200 rc=0\b/);
    } finally {
      await Promise.all(fakes.map((f) => f.close()));
      server.close();
    }
  }, 300_000);

  it('refuses host networking with a message naming the option, before any container', () => {
    const out = mkdtempSync(join(tmpdir(), 'gaia2-remote-hostnet-'));
    const r = cli(['run', '-s', bottle, '--agent', 'oracle', '-i', image, '--network', 'host', '--output-dir', out], { DOCKER_HOST: s.DOCKER_HOST_TCP });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/network = "host" \(--network host\) is not possible on the remote podman backend at tcp:\/\/10\.213\.7\.2:2375.*use network = "bridge"/);
    expect(readdirSync(out)).not.toContain('result.json');
  });

  describe('bad DOCKER_HOST values', () => {
    const cases: Array<[string, () => Record<string, string>, RegExp, 'ConfigError' | 'EngineError']> = [
      ['nothing listening', () => ({ DOCKER_HOST: 'tcp://10.213.7.2:1' }), /^DOCKER_HOST=tcp:\/\/10\.213\.7\.2:1: the engine host is not reachable \(ECONNREFUSED\)$/, 'EngineError'],
      ['no answer at all', () => ({ DOCKER_HOST: s.DOCKER_HOST_BLACKHOLE }), /^DOCKER_HOST=tcp:\/\/10\.213\.7\.2:2399: the engine host is not reachable \(no TCP answer within 1\.5 s\)$/, 'EngineError'],
      ['a wrong scheme', () => ({ DOCKER_HOST: 'udp://10.213.7.2:2375' }), /^DOCKER_HOST=udp:\/\/10\.213\.7\.2:2375: unsupported scheme "udp:\/\/"/, 'ConfigError'],
      ['TLS files missing', () => ({ ...tlsEnv(s), DOCKER_CERT_PATH: mkdtempSync(join(tmpdir(), 'gaia2-nocerts-')) }), /^DOCKER_TLS_VERIFY is set but DOCKER_CERT_PATH=\S+ has no ca\.pem, cert\.pem, key\.pem/, 'ConfigError'],
      ['TLS against the plain port', () => ({ ...tlsEnv(s), DOCKER_HOST: s.DOCKER_HOST_TCP }), /^DOCKER_HOST=tcp:\/\/10\.213\.7\.2:2375: the host answers, but not as a container engine \(.*wrong version number.*\) \(TLS with the files in \S+; is the engine serving TLS on this port\?\)$/, 'EngineError'],
      ['plain against the TLS port', () => ({ DOCKER_HOST: s.DOCKER_HOST_TLS }), /^DOCKER_HOST=tcp:\/\/10\.213\.7\.2:2376: the host answers, but not as a container engine \(.*\) \(2376 is the engine TLS port: set DOCKER_TLS_VERIFY=1/, 'EngineError'],
      ['an SSH host key not in known_hosts', () => ({ ...sshEnv(s), GAIA2_SSH_KNOWN_HOSTS: emptyFile() }), /^DOCKER_HOST=ssh:\/\/root@10\.213\.7\.2:22: the host key of 10\.213\.7\.2 is not in \S+ \(GAIA2_SSH_KNOWN_HOSTS\)/, 'ConfigError'],
      ['an SSH key the host does not accept', () => ({ ...sshEnv(s), GAIA2_SSH_IDENTITY: newSshKey() }), /^DOCKER_HOST=ssh:\/\/root@10\.213\.7\.2:22: login as root was refused/, 'ConfigError'],
    ];

    it.each(cases)('%s: a clear error naming the variable and the address', async (_name, env, message, type) => {
      const err = await connectEngine({ env: { ...baseEnv(), ...env() } }).then(
        (e) => (engines.push(e), null),
        (e: Error) => e,
      );
      expect(err?.name).toBe(type);
      expect(err?.message).toMatch(message);
    }, 30_000);

    it('leave a finished run as it was (CLI: exit 3 unreachable, as any infrastructure error; 2 bad value)', () => {
      const before = readFileSync(join(finished, 'results.jsonl'), 'utf8');
      const entries = readdirSync(finished).sort();
      const args = ['run-dataset', '-d', samplesDir, '--agent', 'oracle', '-i', image, '--output-dir', finished, '--retry'];
      const unreachable = cli(args, { DOCKER_HOST: 'tcp://10.213.7.2:1' });
      expect(unreachable.status).toBe(3);
      expect(unreachable.stderr).toContain('DOCKER_HOST=tcp://10.213.7.2:1: the engine host is not reachable');
      const bad = cli(args, { DOCKER_HOST: 'tcp://10.213.7.2:2375/v1.41' });
      expect(bad.status).toBe(2);
      expect(bad.stderr).toContain('DOCKER_HOST=tcp://10.213.7.2:2375: a path or query is not supported');
      expect(readFileSync(join(finished, 'results.jsonl'), 'utf8')).toBe(before);
      expect(readdirSync(finished).sort()).toEqual(entries);
    }, 120_000);
  });
});

describe('remote engine over TLS (client certificates)', () => {
  it('runs an oracle sample and describes the endpoint without credentials', async () => {
    const e = await remote(tlsEnv(s));
    expect(await e.describe()).toMatchObject({ endpoint: s.DOCKER_HOST_TLS, remote: true });
    const out = mkdtempSync(join(tmpdir(), 'gaia2-remote-tls-'));
    const r = cli(['run', '-s', bottle, '--agent', 'oracle', '-i', image, '--output-dir', out], tlsEnv(s));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr.split('\n').filter((l) => /remove failed|could not/i.test(l))).toEqual([]);
    expect(JSON.parse(readFileSync(join(out, 'exec_shopping_bottle_order', 'result.json'), 'utf8'))).toMatchObject({ status: 'pass', success: true });
  }, 300_000);
});

describe('remote engine over SSH', () => {
  it('runs the 12 oracle samples 12/12 through the SSH transport and leaves no container behind', async () => {
    runSamples(sshEnv(s));
    const e = await remote(sshEnv(s));
    expect(await e.describe()).toMatchObject({ endpoint: s.DOCKER_HOST_SSH, remote: true });
    expect(await left(e)).toEqual([]);
  }, 600_000);

  it('serves many concurrent API requests over its one connection (sshd allows 10 sessions)', async () => {
    const e = await remote(sshEnv(s));
    const answers = await Promise.allSettled(Array.from({ length: 30 }, () => e.listByLabels({ 'gaia2.test': 'none' })));
    expect(answers.filter((a) => a.status === 'rejected')).toEqual([]);
  }, 120_000);

  it('relays a model endpoint on the runner’s loopback to a container on the SSH engine', async () => {
    const e = await remote(sshEnv(s));
    const run = await runWithFakeLlm(e, image, bottle, `sk-remote-${randomBytes(6).toString('hex')}`, {
      format: 'anthropic', tools: 'functions', stream: true, script: scriptFor(play, 'functions'),
    });
    expect(run.containerBaseUrl).toContain(`//${s.GAIA2_REMOTE_HOST_SIDE}:`);
    expect(run.result.status).toBe('pass');
  }, 300_000);
});

describe('remote engine over SSH to the engine socket (podman’s ssh://user@host/path form)', () => {
  it('runs the execution samples through a forwarded socket and leaves no container behind', async () => {
    runSamples(sshSocketEnv(s), 'execution');
    const e = await remote(sshSocketEnv(s));
    expect(await e.describe()).toMatchObject({ endpoint: s.DOCKER_HOST_SSH_SOCKET, remote: true });
    expect(await left(e)).toEqual([]);
  }, 600_000);

  it('names the socket when nothing listens there', async () => {
    const err = await connectEngine({ env: { ...baseEnv(), ...sshEnv(s), DOCKER_HOST: `${s.DOCKER_HOST_SSH}/run/gaia2-no-engine.sock` } }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/^DOCKER_HOST=ssh:\/\/root@10\.213\.7\.2:22\/run\/gaia2-no-engine\.sock: .*\/run\/gaia2-no-engine\.sock on the engine host/);
  }, 60_000);
});

describe('a third-party agent on the remote engine over TCP', () => {
  it('the CLI builds the Claude Code layer there and the real program passes a sample, its tokens counted through the gateway', async () => {
    const version = findAdapter('claude-code')!.package.version;
    const env = { ...baseEnv(), DOCKER_HOST: s.DOCKER_HOST_TCP };
    const run = await runSingleSample(image, AGENTS['claude-code'], env);
    expect(run.code, run.err).toBe(0);
    // The layer is on the remote engine, labelled, built from this host's package cache.
    const e = await remote({ DOCKER_HOST: s.DOCKER_HOST_TCP });
    expect(await e.images!.labels(layerTag(image, 'claude-code', version))).toMatchObject({ 'gaia2.agent.name': 'claude-code', 'gaia2.agent.version': version });
    const [r] = readResults(run.dir);
    expect([r!.status, r!.error ?? null, r!.agent]).toEqual(['pass', null, { name: 'claude-code', version }]);
    // The program ran its own Bash tool against the app CLIs through the relayed double.
    expect(run.fake.requests.length).toBeGreaterThan(2);
    expect(run.driver.unplaced).toEqual([]);
    // Usage from the gateway's traffic record equals the double's billing; the key reached the double only.
    const billed = run.fake.billing();
    expect(r!.usage?.agent).toMatchObject({ source: 'gateway', llm_calls: billed.responses, output_tokens: billed.output, input_tokens: billed.input + billed.cacheRead + billed.cacheWrite });
    for (const q of run.fake.requests) expect(String(q.headers['x-api-key'])).toContain(run.key);
    for (const f of readdirSync(run.dir, { recursive: true, withFileTypes: true }).filter((x) => x.isFile()))
      expect(readFileSync(join(f.parentPath, f.name), 'utf8').includes(run.key), f.name).toBe(false);
  }, 900_000);
});

describe('remote engine over TCP: the model gateway', () => {
  it('the key reaches the provider double and nothing the engine host receives: no API request, no process environment or command line, no file of the container', async () => {
    const front = await startRecordingFront(s);
    const specs: ContainerSpec[] = [];
    const looks: ContainerLook[] = [];
    const logs: string[] = [];
    const play = phaseModel(CASES);
    let looked: Promise<void> | null = null;
    // Looked at directly (not through the front: the look is no part of the run).
    const docker = dockerAt(s.DOCKER_HOST_TCP);
    const model = await startFakeLlm({
      format: 'openai-chat',
      respond: async (r) => {
        looked ??= (async () => void looks.push(...(await Promise.all(specs.map((x) => lookInside(docker, x.name!))))))();
        await looked;
        return play(r);
      },
    });
    const judge = await startFakeLlm({ format: 'anthropic', fallback: say('Verdict: [[Success]] / [[True]]') });
    const out = join(mkdtempSync(join(tmpdir(), 'gaia2-remote-gw-')), 'run');
    try {
      const e = await remote({ DOCKER_HOST: front.host });
      const o = await executeGateway(
        spying(e, specs),
        gatewayPlan(out, { subset: subset({ search: ['search_email_flight_code'] }), baseUrl: model.url, judgeProvider: 'anthropic', judgeModel: 'claude-judge-fake', judgeBaseUrl: judge.url, judgeApiKeyEnv: KEY_VAR }),
        logs,
      );
      expect(o.results.map((r) => r.status)).toEqual(['pass']);
      expect(o.report.model_gateway).toMatchObject({ mode: 'gateway', gave_up: 0 });
      // Present at the provider doubles.
      expect(model.requests.length).toBeGreaterThan(0);
      for (const r of model.requests) expect(r.headers.authorization).toBe(`Bearer ${CANARY}`);
      for (const r of judge.requests) expect(r.headers['x-api-key']).toBe(CANARY);
      // The gateway on the runner's loopback, reached through the relay on the runner's address toward the engine host.
      expect(logs.join('\n')).toMatch(/Model gateway on 127\.0\.0\.1:\d+/);
      expect(specs).toHaveLength(1);
      const env = specs[0]!.env;
      expect(new URL(env.BASE_URL!).hostname).toBe(s.GAIA2_REMOTE_HOST_SIDE);
      expect(env.API_KEY).toMatch(/^g2gw-/);
      // Every byte the engine API received: the create request with the tokens, never the key.
      const sent = front.received().toString('latin1');
      expect(sent).toContain('/containers/create');
      expect(sent).toContain(env.API_KEY);
      expect(sent).not.toContain(CANARY);
      // Inside the running container.
      expect(looks).toHaveLength(1);
      expect(looks[0]!.processes).toContain(env.API_KEY);
      expect(looks[0]!.files).toContain('search_email_flight_code');
      expect(looks[0]!.processes).not.toContain(CANARY);
      expect(looks[0]!.files).not.toContain(CANARY);
      // Nor in the run's files or log.
      for (const f of readdirSync(out, { recursive: true, encoding: 'utf8' })) {
        const p = join(out, f);
        if (statSync(p).isFile()) expect(readFileSync(p, 'utf8').includes(CANARY), f).toBe(false);
      }
      expect(logs.join('\n')).not.toContain(CANARY);
    } finally {
      await model.close();
      await judge.close();
      front.close();
    }
  }, 300_000);
});

describe('after all runs', () => {
  it('no container of any kind is left on the remote engine', async () => {
    const e = await remote({ DOCKER_HOST: s.DOCKER_HOST_TCP });
    expect(await left(e, {})).toEqual([]);
  });
});

/** Containers still on the engine, by name, state and run (what a failure message needs). */
async function left(e: UnitBackend, labels: Record<string, string> = { 'gaia2.managed': '1' }): Promise<string[]> {
  return (await e.listByLabels(labels)).map((c) => `${c.name} ${c.state} ${c.labels['gaia2.run-id'] ?? ''}`);
}

function emptyFile(): string {
  const f = join(mkdtempSync(join(tmpdir(), 'gaia2-kh-')), 'known_hosts');
  writeFileSync(f, '');
  return f;
}

function newSshKey(): string {
  const f = join(mkdtempSync(join(tmpdir(), 'gaia2-key-')), 'id_ed25519');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', f]);
  return f;
}
