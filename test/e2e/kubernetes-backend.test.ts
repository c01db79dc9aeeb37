// The Kubernetes backend end to end, against the API-server double (scripts/k8s-sandbox.sh)
// whose Pods really run in podman (`podman kube play` of our Pod specs): the oracle samples
// pass with the local backend's artifacts, nothing is left behind, a killed Pod / an
// unschedulable Pod / a missing image are typed errors that --retry reruns, and a canary API
// key never shows in a Pod spec, a log or an output file.
import { KubeConfig, Watch, CoreV1Api } from '@kubernetes/client-node';
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Writable } from 'node:stream';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScenarioResult } from '@gaia2/contract/result';
import { loadRunConfig } from '../../runner/src/config/resolve-toml.js';
import { DEFAULT_IMAGE } from '../../runner/src/image/index.js';
import { prepareDataset, runSession } from '../../runner/src/orchestrator/session.js';
import { createProgress } from '../../runner/src/progress/index.js';
import { recordFaultFigure } from './helpers/fault-run.js';

const root = join(import.meta.dirname, '..', '..');
const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
const CANARY = 'sk-canary-k8s-0f1e2d3c4b5a6978';
const work = mkdtempSync(join(tmpdir(), 'gaia2-k8s-e2e-'));
const stateDir = join(work, 'sandbox');
const sandbox = (cmd: string) => execFileSync('bash', [join(root, 'scripts/k8s-sandbox.sh'), cmd], { env: { ...process.env, K8SD_STATE_DIR: stateDir }, encoding: 'utf8' }).trim();

let kubeconfig = '';
let kc: KubeConfig;
let core: CoreV1Api;
let api: { url: string; token: string; dispatcher: Agent };
/** Every Pod and Secret object the API server showed during the suite (a watch each). */
const seen: string[] = [];
const onRunning: Array<(pod: { metadata: { name: string; labels: Record<string, string> } }) => void> = [];
/** Called when a Pod is gone: a run has ended and its lane starts the next one. */
const onDeleted: Array<(pod: { metadata: { name: string; labels: Record<string, string> } }) => void> = [];
const watches: AbortController[] = [];
/** Everything the runner printed. */
const output: string[] = [];

async function hook(method: string, path: string, body?: unknown): Promise<void> {
  const r = await fetch(`${api.url}/_k8sd/${path}`, {
    method,
    headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    dispatcher: api.dispatcher,
  } as RequestInit);
  if (!r.ok) throw new Error(`hook ${method} ${path}: ${r.status} ${await r.text()}`);
}

interface Run {
  code: number;
  results: ScenarioResult[];
  ran: number;
}

interface RunOptions {
  dataset?: string;
  /** false: the local engine instead of the cluster. */
  backend?: boolean;
  extraRun?: string;
  /** [kubernetes] keys over the defaults (TOML values). */
  k8s?: Record<string, string>;
  /** Extra [agent] lines and tables after it. */
  agent?: string;
  retry?: boolean;
  image?: string;
}

function writeConfig(name: string, o: RunOptions = {}): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'c.toml');
  // Generous pending time: the double's node is this shared machine, where podman is slow under load.
  const k8s = { kubeconfig: JSON.stringify(kubeconfig), image_pull_policy: '"Never"', pending_timeout: '300', ...o.k8s };
  writeFileSync(
    file,
    `[target]\ndataset_root = ${JSON.stringify(o.dataset ?? join(root, 'examples/scenarios'))}\n` +
      `[run]\noutput_dir = "out"\nconcurrency = 3\nhealth_timeout = 120\ntimeout = 180\n${o.extraRun ?? ''}` +
      (o.backend === false ? '' : `backend = "kubernetes"\n[kubernetes]\n${Object.entries(k8s).map(([k, v]) => `${k} = ${v}\n`).join('')}`) +
      `[agent]\nname = "oracle"\nimage = ${JSON.stringify(o.image ?? image)}\n${o.agent ?? ''}`,
  );
  return file;
}

async function run(name: string, o: RunOptions = {}): Promise<Run> {
  const file = o.retry ? join(work, name, 'c.toml') : writeConfig(name, o);
  const env = { ...process.env, CANARY_KEY: CANARY };
  const plan = loadRunConfig(file, env);
  plan.run.retry = Boolean(o.retry);
  // The progress lines too (the outage gate's "engine unreachable" among them).
  const lines = new Writable({ write: (chunk: Buffer, _enc, done) => { output.push(chunk.toString()); done(); } });
  const io = { out: (t: string) => void output.push(t), err: (t: string) => void output.push(t), env, progress: createProgress({ stream: lines as unknown as NodeJS.WriteStream, tty: false }) };
  const ds = await prepareDataset(plan, io);
  const { code, outcome } = await runSession(plan, ds, io);
  return { code, results: outcome?.results ?? [], ran: outcome?.ran ?? 0 };
}

function watchAll(kind: 'pods' | 'secrets'): Promise<AbortController> {
  const ns = kc.getContextObject(kc.getCurrentContext())!.namespace!;
  return new Watch(kc).watch(
    `/api/v1/namespaces/${ns}/${kind}`,
    {},
    (type: string, obj: { metadata: { name: string; labels: Record<string, string> }; status?: { phase?: string } }) => {
      seen.push(JSON.stringify(obj));
      if (kind === 'pods' && type === 'MODIFIED' && obj.status?.phase === 'Running') for (const f of [...onRunning]) f(obj);
      if (kind === 'pods' && type === 'DELETED') for (const f of [...onDeleted]) f(obj);
    },
    () => {},
  );
}

/** Files of each scenario run directory (relative), without the per-attempt archive. */
function shape(out: string): Map<string, string[]> {
  const m = new Map<string, string[]>();
  const walk = (d: string) => {
    const files = readdirSync(d).filter((f) => !f.startsWith('.'));
    if (files.includes('result.json')) m.set(relative(out, d), files.filter((f) => statSync(join(d, f)).isFile()).sort());
    for (const f of files) if (statSync(join(d, f)).isDirectory()) walk(join(d, f));
  };
  walk(out);
  return m;
}

function oneScenarioDataset(name: string): string {
  const d = join(work, `${name}-data`, 'search');
  mkdirSync(d, { recursive: true });
  const src = join(root, 'examples/scenarios/search');
  const f = readdirSync(src)[0]!;
  writeFileSync(join(d, f), readFileSync(join(src, f)));
  return join(work, `${name}-data`);
}

async function leftovers(): Promise<{ pods: number; secrets: number }> {
  const ns = kc.getContextObject(kc.getCurrentContext())!.namespace!;
  const [pods, secrets] = await Promise.all([core.listNamespacedPod({ namespace: ns, labelSelector: 'gaia2.managed' }), core.listNamespacedSecret({ namespace: ns, labelSelector: 'gaia2.managed' })]);
  // Background garbage collection of the last run's objects may take a moment.
  return { pods: pods.items.length, secrets: secrets.items.length };
}

async function settledLeftovers(): Promise<{ pods: number; secrets: number }> {
  for (let i = 0; ; i++) {
    const l = await leftovers();
    if ((l.pods === 0 && l.secrets === 0) || i >= 50) return l;
    await new Promise((r) => setTimeout(r, 200));
  }
}

beforeAll(async () => {
  kubeconfig = sandbox('start');
  kc = new KubeConfig();
  kc.loadFromFile(kubeconfig);
  core = kc.makeApiClient(CoreV1Api);
  const raw = JSON.parse(readFileSync(kubeconfig, 'utf8')) as { clusters: Array<{ cluster: { server: string; 'certificate-authority-data': string } }>; users: Array<{ user: { token: string } }> };
  api = {
    url: raw.clusters[0]!.cluster.server,
    token: raw.users[0]!.user.token,
    dispatcher: new Agent({ connect: { ca: Buffer.from(raw.clusters[0]!.cluster['certificate-authority-data'], 'base64').toString() } }),
  };
  watches.push(await watchAll('pods'), await watchAll('secrets'));
}, 120_000);

afterAll(async () => {
  for (const w of watches) w.abort();
  sandbox('stop');
});

describe('kubernetes backend (API-server double, Pods in podman)', () => {
  let k8s: Run;
  let local: Run;

  it('runs the 12 oracle samples: all pass, artifacts shaped like the local backend’s, nothing left', async () => {
    k8s = await run('samples-k8s');
    local = await run('samples-local', { backend: false });
    expect(k8s.results.map((r) => `${r.scenario_id}: ${r.status} ${r.error ?? ''}`).sort()).toEqual(local.results.map((r) => `${r.scenario_id}: pass `).sort());
    expect(k8s.results).toHaveLength(12);
    expect(k8s.code).toBe(0);
    const a = shape(join(work, 'samples-k8s', 'out'));
    const b = shape(join(work, 'samples-local', 'out'));
    expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
    for (const [k, files] of a) expect(files, k).toEqual(b.get(k));
    for (const [k] of a) {
      const keys = (o: string) => Object.keys(JSON.parse(readFileSync(join(work, o, 'out', k, 'result.json'), 'utf8')) as object).sort();
      expect(keys('samples-k8s'), k).toEqual(keys('samples-local'));
    }
    expect(await settledLeftovers()).toEqual({ pods: 0, secrets: 0 });
  }, 900_000);

  it('pass@2: a killed Pod is a typed infrastructure error, and --retry reruns exactly it', async () => {
    const data = oneScenarioDataset('kill');
    let killed = '';
    const killer = (pod: { metadata: { name: string; labels: Record<string, string> } }) => {
      if (killed || pod.metadata.labels['gaia2.run-index'] !== '2' || !pod.metadata.labels['gaia2.run']) return;
      killed = pod.metadata.name;
      void hook('POST', `pods/${kc.getContextObject(kc.getCurrentContext())!.namespace}/${pod.metadata.name}/kill`);
    };
    onRunning.push(killer);
    const first = await run('kill', { dataset: data, extraRun: 'pass_at = 2\n' });
    onRunning.splice(onRunning.indexOf(killer), 1);
    expect(killed).not.toBe('');
    const byRun = new Map(first.results.map((r) => [r.run_index, r]));
    expect(byRun.get(1)?.status).toBe('pass');
    expect(byRun.get(2)?.status).toBe('error');
    expect(byRun.get(2)?.error_kind).toBe('container_exited');
    expect(first.code).toBe(3);
    const again = await run('kill', { retry: true });
    expect(again.ran).toBe(1);
    expect(again.code).toBe(0);
    expect(again.results.map((r) => [r.run_index, r.status]).sort()).toEqual([
      [1, 'pass'],
      [2, 'pass'],
    ]);
    expect(await settledLeftovers()).toEqual({ pods: 0, secrets: 0 });
  }, 600_000);

  it('an unschedulable Pod ends pod_unschedulable after pending_timeout; --retry reruns it', async () => {
    const data = oneScenarioDataset('pending');
    const first = await run('pending', { dataset: data, k8s: { pending_timeout: '3', node_selector: '{ pool = "gpu-none" }' } });
    expect(first.results.map((r) => r.error_kind)).toEqual(['pod_unschedulable']);
    expect(first.results[0]!.error).toMatch(/not scheduled within 3s: Unschedulable/);
    expect(first.code).toBe(3);
    const again = await run('pending', { retry: true });
    expect(again.ran).toBe(1);
    expect(await settledLeftovers()).toEqual({ pods: 0, secrets: 0 });
  }, 300_000);

  it('a missing image ends image_pull_failed', async () => {
    const data = oneScenarioDataset('pull');
    const r = await run('pull', { dataset: data, image: 'localhost/gaia2-agent:no-such-tag-e2e', k8s: { image_pull_policy: '"IfNotPresent"' } });
    expect(r.results.map((x) => x.error_kind)).toEqual(['image_pull_failed']);
    expect(r.results[0]!.error).toMatch(/ErrImagePull|ImagePullBackOff/);
    expect(r.code).toBe(3);
    expect(await settledLeftovers()).toEqual({ pods: 0, secrets: 0 });
  }, 300_000);

  it('a canary API key reaches the unit as a secret file and nowhere else', async () => {
    const data = oneScenarioDataset('canary');
    // A judge with the canary key, in direct mode (the model gateway off: with it the key stays
    // in the gateway's Secret, kubernetes-gateway.test.ts): the key goes to every unit. Its
    // endpoint does not resolve (.invalid), so any judge call fails at once; the run's outcome
    // does not matter here. Unsealed: a sealed unit ends before anything runs when a name it
    // must let its agent reach does not resolve (kubernetes-sealed.test.ts covers sealing).
    const r = await run('canary', {
      dataset: data,
      extraRun: 'network = "open"\n',
      agent: '[judge]\nprovider = "openai"\nmodel = "judge-m"\napi_key_env = "CANARY_KEY"\nbase_url = "http://judge.gaia2-e2e.invalid/v1"\n[gateway]\nenabled = false\n',
    });
    expect(r.results).toHaveLength(1);
    const b64 = Buffer.from(CANARY).toString('base64');
    // It travelled in a Secret …
    expect(seen.some((o) => o.includes('"kind":"Secret"') && o.includes(b64))).toBe(true);
    // … and arrived as a file the entrypoint loaded (names are logged, never values).
    const entry = readFileSync(join(work, 'canary', 'out', 'search', r.results[0]!.scenario_id, 'entrypoint.log'), 'utf8');
    expect(entry).toMatch(/secret files loaded:.*GAIA2_JUDGE_API_KEY/);
    expect(entry).toMatch(/secret files loaded:.*GAIA2_ADAPTER_TOKEN/);
    // Nowhere else: no Pod object, no output file, no runner output, no API-server log.
    const pods = seen.filter((o) => o.includes('"kind":"Pod"') || o.includes('"containers"'));
    expect(pods.length).toBeGreaterThan(0);
    for (const p of pods) expect(p).not.toContain(CANARY);
    const files: string[] = [];
    const walk = (d: string) => {
      for (const f of readdirSync(d)) {
        const p = join(d, f);
        if (statSync(p).isDirectory()) walk(p);
        else files.push(p);
      }
    };
    walk(join(work, 'canary', 'out'));
    expect(files.length).toBeGreaterThan(3);
    for (const f of files) expect(readFileSync(f, 'utf8'), f).not.toContain(CANARY);
    expect(output.join('')).not.toContain(CANARY);
    expect(readFileSync(join(stateDir, 'double.log'), 'utf8')).not.toContain(CANARY);
    expect(await settledLeftovers()).toEqual({ pods: 0, secrets: 0 });
  }, 300_000);

  it('kill -9 of the runner keeps finished results; `clean --config` removes what it left', async () => {
    const data = join(work, 'kill9-data');
    for (const split of ['search', 'execution']) {
      mkdirSync(join(data, split), { recursive: true });
      for (const f of readdirSync(join(root, 'examples/scenarios', split))) writeFileSync(join(data, split, f), readFileSync(join(root, 'examples/scenarios', split, f)));
    }
    const file = writeConfig('kill9', { dataset: data, extraRun: '' });
    writeFileSync(file, readFileSync(file, 'utf8').replace('concurrency = 3', 'concurrency = 2'));
    const cli = spawn(process.execPath, [join(root, 'bin/gaia2-runner.mjs'), 'run-config', file], { stdio: 'ignore' });
    const results = join(work, 'kill9', 'out', 'results.jsonl');
    // Kill it once one run has finished and another Pod is in flight.
    for (let i = 0; i < 600; i++) {
      const lines = (() => { try { return readFileSync(results, 'utf8').trim().split('\n').filter(Boolean).length; } catch { return 0; } })();
      if (lines >= 1 && (await leftovers()).pods > 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    cli.kill('SIGKILL');
    await new Promise((r) => cli.once('exit', r));
    const kept = readFileSync(results, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as ScenarioResult);
    expect(kept.length).toBeGreaterThanOrEqual(1);
    for (const r of kept) expect(r.status).toBe('pass');
    expect((await leftovers()).secrets).toBeGreaterThan(0); // the run's objects are still there
    const out = execFileSync(process.execPath, [join(root, 'bin/gaia2-runner.mjs'), 'clean', '--config', file], { encoding: 'utf8' });
    expect(out).toMatch(/removed \d+ container\(s\)/);
    expect(await settledLeftovers()).toEqual({ pods: 0, secrets: 0 });
  }, 600_000);
  it('the API server away for 10 s as a run ends (a restart): the runs in flight wait for it; 6 runs, every one judged a pass in one invocation, without --retry', async () => {
    const data = oneScenarioDataset('api-outage');
    let cut = 0;
    let hooked: Promise<string> = Promise.resolve('never called');
    // When the first run's Pod is gone its lane starts the next run, into the outage.
    const outage = (pod: { metadata: { name: string; labels: Record<string, string> } }) => {
      if (cut || !pod.metadata.labels['gaia2.run']) return;
      cut = Date.now();
      hooked = hook('POST', 'outage', { seconds: 10 }).then(() => 'ok', (e: Error) => e.message);
    };
    onDeleted.push(outage);
    const t0 = Date.now();
    const from = output.length;
    const r = await run('api-outage', { dataset: data, extraRun: 'pass_at = 6\n' }).finally(() => onDeleted.splice(onDeleted.indexOf(outage), 1));
    const wall = (Date.now() - t0) / 1000;
    // the suite's own watches were cut with everything else: open them again for what follows
    for (const w of watches.splice(0)) w.abort();
    watches.push(await watchAll('pods'), await watchAll('secrets'));
    expect(cut).toBeGreaterThan(0);
    expect(await hooked).toBe('ok');
    // Runs were in flight across the whole outage (their Pods ran on; the runner's calls waited
    // for the API server), and none of them was lost to it.
    const across = r.results.filter((x) => Date.parse(x.started_at!) < cut && Date.parse(x.finished_at!) > cut + 10_000);
    expect(across.length, output.slice(from).join('')).toBeGreaterThan(0);
    expect(r.results.map((x) => `${x.run_index}: ${x.status} ${x.error ?? ''}`).sort()).toEqual([1, 2, 3, 4, 5, 6].map((i) => `${i}: pass `));
    expect(r.code).toBe(0);
    expect(await settledLeftovers()).toEqual({ pods: 0, secrets: 0 });
    const restarts = r.results.reduce((n, x) => n + (x.infra_restarts ?? 0), 0);
    recordFaultFigure({ fault: 'Kubernetes API server away 10 s', engine: 'kubernetes', runs: 6, passed: r.results.filter((x) => x.status === 'pass').length, restarts, fault_s: 10, wall_s: wall });
  }, 600_000);
});
