// Kubernetes backend at scale, against the API-server double's lightweight mode (Pods are
// in-process stand-ins, bench/lib/k8s-fake-double.ts): BENCH_RUNS scenario runs (default 512)
// at concurrency BENCH_J (default 256) through the real orchestrator and KubernetesEngine.
// Reports the runner's peak RSS (goal ≤ 300 MB), API requests per run by verb and resource
// (from the double's request counter), the watches opened, and wall time.
// Run: npm run bench k8s-scale
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Agent } from 'undici';
import { loadRunConfig } from '../runner/src/config/resolve-toml.js';
import { resolveDataset } from '../runner/src/dataset/index.js';
import { connectBackend } from '../runner/src/engine/connect.js';
import type { KubernetesEngine } from '../runner/src/engine/kubernetes/index.js';
import { executePlan } from '../runner/src/orchestrator/execute.js';
import { runScenario } from '../runner/src/run/index.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 512);
const J = Number(process.env.BENCH_J ?? 256);
const root = join(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'gaia2-k8s-bench-'));

const child = spawn('npx', ['tsx', join(import.meta.dirname, 'lib/k8s-fake-double.ts')], { stdio: ['ignore', 'pipe', 'inherit'] });
const first = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve));
const d = JSON.parse(first) as { url: string; token: string; ca: string };
const kubeconfig = join(work, 'kubeconfig');
writeFileSync(
  kubeconfig,
  JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'b', cluster: { server: d.url, 'certificate-authority-data': Buffer.from(d.ca).toString('base64') } }],
    users: [{ name: 'b', user: { token: d.token } }],
    contexts: [{ name: 'b', context: { cluster: 'b', user: 'b', namespace: 'default' } }],
    'current-context': 'b',
  }),
);
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
const plan = loadRunConfig(join(work, 'c.toml'), {});
const ds = await resolveDataset(plan.target, { env: {}, log: () => {} });
const engine = (await connectBackend(plan.run.backend)) as KubernetesEngine;
await hook('DELETE', 'requests');

const baseRss = process.memoryUsage().rss;
let peak = baseRss;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
const t0 = performance.now();
const outcome = await executePlan(plan, ds, { engine, runScenario, progress: { start() {}, done() {}, log() {}, stop() {} } });
const wallS = (performance.now() - t0) / 1000;
clearInterval(sampler);
await engine.close();
const requests = await hook('GET', 'requests');
child.kill('SIGTERM');

const g = outcome.report.overall;
const total = Object.values(requests).reduce((a, b) => a + b, 0);
const perRun = Object.fromEntries(Object.entries(requests).sort().map(([k, v]) => [k, +(v / RUNS).toFixed(2)]));
console.log(`runs ${RUNS} at -j ${J}: ${g.passed} passed, ${g.failed} failed, ${g.errors} errors in ${wallS.toFixed(1)}s (${(RUNS / wallS).toFixed(1)} runs/s; each unit's own work ${process.env.BENCH_UNIT_MS ?? 2000} ms)`);
console.log(`runner peak RSS: ${(peak / 2 ** 20).toFixed(0)} MB (goal ≤ 300 MB); before the run ${(baseRss / 2 ** 20).toFixed(0)} MB (node + tsx + modules)`);
console.log(`API requests: ${total} = ${(total / RUNS).toFixed(2)} per run; per run by verb/resource: ${JSON.stringify(perRun)}`);
console.log(`watches: ${JSON.stringify(engine.watchStats())}`);
if (g.passed !== RUNS) process.exitCode = 1;
