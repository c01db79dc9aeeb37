// Kubernetes backend at scale, against the API-server double's lightweight mode (Pods are
// in-process stand-ins for the adapter, K8SD_FAKE=1): BENCH_RUNS scenario runs (default 512)
// at concurrency BENCH_J (default 256) through the built CLI (`run-config`, its own process).
// Reports the runner's peak RSS (goal ≤ 300 MB), API requests per run by verb and resource
// (from the double's request counter), the most watches open at once, and wall time.
// Run: npm run bench k8s-scale
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from 'undici';

const RUNS = Number(process.env.BENCH_RUNS ?? 512);
const J = Number(process.env.BENCH_J ?? 256);
const root = join(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'gaia2-k8s-bench-'));

// The double in its lightweight mode (scripts/k8s-sandbox.sh with K8SD_FAKE=1): each Pod is an
// in-process stand-in for our adapter that ends like a real oracle run after K8SD_FAKE_RUN_MS.
const RUN_MS = process.env.BENCH_UNIT_MS ?? '2000';
const sandboxEnv = { ...process.env, K8SD_FAKE: '1', K8SD_FAKE_RUN_MS: RUN_MS, K8SD_STATE_DIR: join(work, 'sandbox') };
const sandbox = (cmd: string) => execFileSync('bash', [join(root, 'scripts/k8s-sandbox.sh'), cmd], { env: sandboxEnv, encoding: 'utf8' }).trim();
const kubeconfig = sandbox('start');
const kc = JSON.parse(readFileSync(kubeconfig, 'utf8')) as { clusters: Array<{ cluster: { server: string; 'certificate-authority-data': string } }>; users: Array<{ user: { token: string } }> };
const d = { url: kc.clusters[0]!.cluster.server, token: kc.users[0]!.user.token, ca: Buffer.from(kc.clusters[0]!.cluster['certificate-authority-data'], 'base64').toString() };
const dispatcher = new Agent({ connect: { ca: d.ca } });
const hook = async (method: string, path: string) =>
  (await fetch(`${d.url}/_k8sd/${path}`, { method, headers: { authorization: `Bearer ${d.token}` }, dispatcher } as RequestInit)).json() as Promise<Record<string, number>>;

// RUNS copies of one sample scenario, each with its own id.
const scenario = JSON.parse(readFileSync(join(root, 'examples/scenarios/execution/exec_files_tax_cleanup.json'), 'utf8')) as { metadata: { definition: { scenario_id: string } } };
mkdirSync(join(work, 'data', 'execution'), { recursive: true });
for (let i = 0; i < RUNS; i++) {
  scenario.metadata.definition.scenario_id = `bench_${i}`;
  writeFileSync(join(work, 'data', 'execution', `bench_${i}.json`), JSON.stringify(scenario));
}
writeFileSync(
  join(work, 'c.toml'),
  `[target]\ndataset_root = "data"\n[agent]\nname = "oracle"\nimage = "registry.example/gaia2-agent:bench"\n` +
    `[run]\nbackend = "kubernetes"\nconcurrency = ${J}\noutput_dir = "out"\nhealth_timeout = 300\n[kubernetes]\nkubeconfig = ${JSON.stringify(kubeconfig)}\n`,
);
await hook('DELETE', 'requests');

// The runner as users run it (the built CLI, its own process): peak RSS is its VmHWM.
let peakKb = 0;
let watchesMax = 0;
const t0 = performance.now();
const runner = spawn(process.execPath, [join(root, 'bin/gaia2-runner.mjs'), 'run-config', join(work, 'c.toml')], { stdio: ['ignore', 'ignore', 'inherit'] });
const sampler = setInterval(() => {
  try {
    const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${runner.pid}/status`, 'utf8'))?.[1] ?? 0);
    peakKb = Math.max(peakKb, kb);
  } catch {
    // exited
  }
  void hook('GET', 'stats').then((st) => (watchesMax = Math.max(watchesMax, st.watches ?? 0)), () => {});
}, 50);
const code = await new Promise<number>((resolve) => runner.on('exit', (c) => resolve(c ?? -1)));
const wallS = (performance.now() - t0) / 1000;
clearInterval(sampler);
const requests = await hook('GET', 'requests');
sandbox('stop');
const results = readFileSync(join(work, 'out', 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { status: string });
const g = { passed: results.filter((r) => r.status === 'pass').length, failed: results.filter((r) => r.status === 'fail').length, errors: results.filter((r) => r.status === 'error').length };
const total = Object.values(requests).reduce((a, b) => a + b, 0);
const perRun = Object.fromEntries(Object.entries(requests).sort().map(([k, v]) => [k, +(v / RUNS).toFixed(2)]));
console.log(`runs ${RUNS} at -j ${J}: ${g.passed} passed, ${g.failed} failed, ${g.errors} errors in ${wallS.toFixed(1)}s (${(RUNS / wallS).toFixed(1)} runs/s; each unit's own work ${RUN_MS} ms)`);
console.log(`runner peak RSS (VmHWM of the CLI process): ${(peakKb / 1024).toFixed(0)} MB (goal ≤ 300 MB); exit code ${code}`);
console.log(`API requests: ${total} = ${(total / RUNS).toFixed(2)} per run; per run by verb/resource: ${JSON.stringify(perRun)}; totals ${JSON.stringify(requests)}`);
console.log(`watches open at once (max): ${watchesMax}`);
if (g.passed !== RUNS) process.exitCode = 1;
