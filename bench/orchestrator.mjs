// Orchestrator benchmark (issue E), everything measured in the same process and run:
//   floor        = 100 bare engine lifecycles (create → start → exit → remove) at concurrency 8
//   direct       = the same 100 oracle runs as plain runScenario() calls in a pool of 8
//                  (the single-run lifecycle, no orchestrator: no dataset, results, report)
//   orchestrator = 100 oracle runs (10 scenarios × pass@10) through executePlan at concurrency 8
//   overhead     = orchestrator wall − the scenarios' own work / 8, that work as each world
//                  daemon logged it (eventd.log, "world ready" → terminal status:
//                  bench/lib/daemon-span.ts); the runner's own scenario phase undercounts it
// Goal: overhead / floor ≤ 1.3 (printed with orchestrator / direct, which isolates what the
// orchestrator itself adds). Then the runner's peak RSS at concurrency 32 (goal ≤ 150 MB),
// with the RSS before any run (module graph, tsx) for comparison.
// Run: npm run bench orchestrator   (BENCH_RUNS=100 BENCH_RSS_RUNS=64 to change sizes)
// The RSS is that of the bundled CLI (dist/, rebuilt first) running run-dataset -j 32.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectEngine, LABELS } from '../runner/src/engine/index.js';
import { DEFAULT_IMAGE } from '../runner/src/image/index.js';
import { RUN_DEFAULTS } from '../runner/src/config/plan.js';
import { resolveDataset } from '../runner/src/dataset/index.js';
import { executePlan, runPool } from '../runner/src/orchestrator/index.js';
import { runScenario } from '../runner/src/run/index.js';
import { sumDaemonScenarioMs } from './lib/daemon-span.js';

const image = process.env.GAIA2_BENCH_IMAGE ?? DEFAULT_IMAGE;
const RUNS = Number(process.env.BENCH_RUNS ?? 100);
const RSS_RUNS = Number(process.env.BENCH_RSS_RUNS ?? 64);
const examples = join(import.meta.dirname, '..', 'examples/scenarios');
const quiet = { start() {}, done() {}, log() {}, stop() {} };

const rssStart = process.memoryUsage().rss;
const engine = await connectEngine();
if (!(await engine.imageExists(image))) {
  console.error(`image ${image} is missing: node bin/gaia2-runner.mjs build-image`);
  process.exit(1);
}

// --- floor: the bare engine lifecycle, same image, same concurrency -------------------
const label = { [LABELS.managed]: '1', [LABELS.runId]: `bench-floor-${process.pid}` };
let t0 = performance.now();
await runPool(Array.from({ length: RUNS }, (_, i) => i), 8, async () => {
  const c = await engine.create({ image, env: {}, labels: label, entrypoint: ['bash'], cmd: ['-c', 'exit 0'], network: 'bridge', publishPort: 8090 });
  await c.start();
  while ((await c.state()).running) await new Promise((r) => setTimeout(r, 20));
  await c.remove();
});
const floorMs = performance.now() - t0;

// --- the orchestrator: 10 scenarios × pass@(RUNS/10), concurrency 8 ------------------
function plan(out, passAt, concurrency) {
  return {
    command: 'run-dataset',
    configPath: null,
    target: { kind: 'local', path: examples, recursive: true, splits: null, subset: null, limit: 10 },
    agent: { name: 'oracle', image, runtime: 'podman', provider: null, model: null, apiKey: null, baseUrl: null, thinking: 'low', volumes: [], script: null },
    judge: null,
    run: { ...RUN_DEFAULTS, outputDir: out, passAt, concurrency, timeout: 300 },
  };
}
const directDir = mkdtempSync(join(tmpdir(), 'bench-direct-'));
const dsDirect = await resolveDataset(plan(directDir, 1, 8).target, { env: process.env });
const jobs = Array.from({ length: Math.ceil(RUNS / 10) * dsDirect.entries.length }, (_, i) => dsDirect.entries[i % dsDirect.entries.length]);
t0 = performance.now();
await runPool(jobs, 8, async (e) => {
  await runScenario({
    engine, image, scenarioFile: e.file, outputDir: null, env: {}, agent: 'oracle', network: 'bridge',
    timeouts: { healthSeconds: 120, scenarioSeconds: 300, activitySeconds: 600 }, labels: { [LABELS.managed]: '1', [LABELS.runId]: `bench-direct-${process.pid}` },
  });
});
const directMs = performance.now() - t0;

const p1 = plan(mkdtempSync(join(tmpdir(), 'bench-orch-')), Math.ceil(RUNS / 10), 8);
const ds = await resolveDataset(p1.target, { env: process.env });
t0 = performance.now();
const outcome = await executePlan(p1, ds, { engine, runScenario, progress: quiet });
const orchMs = performance.now() - t0;
const runnerPhaseMs = outcome.results.reduce((a, r) => a + (r.timings?.scenario_ms ?? 0), 0);
const work = sumDaemonScenarioMs(p1.run.outputDir);
const scenarioMs = work.ms;
const g = outcome.report.overall;
const overheadMs = orchMs - scenarioMs / 8;

// --- RSS at concurrency 32: the bundled CLI as a user runs it, sampled from /proc ------
const root = join(import.meta.dirname, '..');
execFileSync(process.execPath, [join(root, 'scripts/build.mjs')], { stdio: 'ignore' });
const rssDir = mkdtempSync(join(tmpdir(), 'bench-rss-'));
const child = spawn(process.execPath, [join(root, 'dist/runner/cli.mjs'), 'run-dataset', '-d', examples, '--limit', '10', '--agent', 'oracle', '-i', image,
  '-j', '32', '--pass-at', String(Math.ceil(RSS_RUNS / 10)), '--output-dir', rssDir, '--timeout', '300'], { stdio: 'ignore' });
let peak = 0;
const sampler = setInterval(() => {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
    if (m) peak = Math.max(peak, Number(m[1]) * 1024);
  } catch {
    /* exited */
  }
}, 100);
const rssCode = await new Promise((r) => child.on('close', r));
clearInterval(sampler);
const rssReport = JSON.parse(readFileSync(join(rssDir, 'report.json'), 'utf8'));
await engine.close();

const mb = (b) => (b / 2 ** 20).toFixed(0);
console.log(`floor: ${RUNS} bare lifecycles at concurrency 8      ${(floorMs / 1000).toFixed(1)} s`);
console.log(`direct: ${jobs.length} runScenario() calls at concurrency 8  ${(directMs / 1000).toFixed(1)} s`);
console.log(`orchestrator: ${g.runs} oracle runs at concurrency 8  ${(orchMs / 1000).toFixed(1)} s  (pass ${g.passed}, fail ${g.failed}, error ${g.errors})`);
console.log(`orchestrator / direct                          ${(orchMs / directMs).toFixed(2)}`);
console.log(`scenarios' own work / 8                        ${(scenarioMs / 8000).toFixed(1)} s  (daemon logs of ${work.runs} runs; the runner's scenario phases: ${(runnerPhaseMs / 8000).toFixed(1)} s)`);
console.log(`orchestrator overhead / floor                  ${(overheadMs / floorMs).toFixed(2)}  (goal ≤ 1.3)`);
console.log(`  minus the runner's scenario phases instead   ${((orchMs - runnerPhaseMs / 8) / floorMs).toFixed(2)}`);
console.log(`orchestrator wall / floor                      ${(orchMs / floorMs).toFixed(2)}`);
console.log(`CLI peak RSS at concurrency 32 (${rssReport.overall.runs} runs, exit ${rssCode})  ${mb(peak)} MB  (goal ≤ 150 MB)`);
console.log(`  for scale: this bench process under tsx used ${mb(rssStart)} MB before any run`);
if (g.errors || rssReport.overall.errors) console.log(`errors by kind: ${JSON.stringify({ ...g.errors_by_kind, ...rssReport.overall.errors_by_kind })}`);
