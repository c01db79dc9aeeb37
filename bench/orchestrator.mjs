// Orchestrator benchmark (issue E), everything measured in the same process and run:
//   floor        = 100 bare engine lifecycles (create → start → exit → remove) at concurrency 8
//   direct       = the same 100 oracle runs as plain runScenario() calls in a pool of 8
//                  (the single-run lifecycle, no orchestrator: no dataset, results, report)
//   orchestrator = 100 oracle runs (10 scenarios × pass@2 per round) through executePlan at
//                  concurrency 8
// The three are interleaved in 5 rounds of 20 runs each (BENCH_ROUNDS): this VM's speed drifts
// by up to 2× within minutes, and a drift between phases measured one after the other would
// show up as overhead (or hide it).
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
import { RUN_DEFAULTS } from '../runner/src/plan/plan.js';
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
if (!(await engine.images?.exists(image))) {
  console.error(`image ${image} is missing: node bin/gaia2-runner.mjs build-image`);
  process.exit(1);
}

// --- the three, interleaved in ROUNDS rounds of RUNS/ROUNDS runs each, so that a change of
// machine speed during the bench (this VM's swings by 2×) hits all three alike -------------
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const perRound = Math.ceil(RUNS / ROUNDS);
const label = { [LABELS.managed]: '1', [LABELS.runId]: `bench-floor-${process.pid}` };
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
const dsDirect = await resolveDataset(plan(tmpdir(), 1, 8).target, { env: process.env });
const scenarios = dsDirect.entries.length;
let floorMs = 0;
let directMs = 0;
let orchMs = 0;
let scenarioMs = 0;
let runnerPhaseMs = 0;
let spans = 0;
const g = { runs: 0, passed: 0, failed: 0, errors: 0, errors_by_kind: {} };
for (let round = 0; round < ROUNDS; round++) {
  // floor: the bare engine lifecycle, same image, same concurrency
  let t0 = performance.now();
  await runPool(Array.from({ length: perRound }, (_, i) => i), 8, async () => {
    const c = await engine.create({ image, env: {}, labels: label, entrypoint: ['bash'], cmd: ['-c', 'exit 0'], network: 'bridge', publishPort: 8090 });
    await c.start();
    while ((await c.state()).running) await new Promise((r) => setTimeout(r, 20));
    await c.remove();
  });
  floorMs += performance.now() - t0;

  // direct: plain runScenario() calls in a pool of 8
  const jobs = Array.from({ length: perRound }, (_, i) => dsDirect.entries[(round * perRound + i) % scenarios]);
  t0 = performance.now();
  await runPool(jobs, 8, async (e) => {
    await runScenario({
      engine, image, scenarioFile: e.file, outputDir: null, env: {}, agent: 'oracle', network: 'bridge',
      timeouts: { healthSeconds: 120, scenarioSeconds: 300, activitySeconds: 600 }, labels: { [LABELS.managed]: '1', [LABELS.runId]: `bench-direct-${process.pid}` },
    });
  });
  directMs += performance.now() - t0;

  // orchestrator: the 10 scenarios × pass@(perRound/10) through executePlan
  const p = plan(mkdtempSync(join(tmpdir(), 'bench-orch-')), Math.ceil(perRound / scenarios), 8);
  const ds = await resolveDataset(p.target, { env: process.env });
  t0 = performance.now();
  const outcome = await executePlan(p, ds, { engine, runScenario, progress: quiet });
  orchMs += performance.now() - t0;
  runnerPhaseMs += outcome.results.reduce((a, r) => a + (r.timings?.scenario_ms ?? 0), 0);
  const work = sumDaemonScenarioMs(p.run.outputDir);
  scenarioMs += work.ms;
  spans += work.runs;
  const o = outcome.report.overall;
  g.runs += o.runs;
  g.passed += o.passed;
  g.failed += o.failed;
  g.errors += o.errors;
  for (const [k, v] of Object.entries(o.errors_by_kind ?? {})) g.errors_by_kind[k] = (g.errors_by_kind[k] ?? 0) + v;
}
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
console.log(`(${ROUNDS} interleaved rounds of ${perRound} runs each: floor, direct, orchestrator)`);
console.log(`floor: ${perRound * ROUNDS} bare lifecycles at concurrency 8      ${(floorMs / 1000).toFixed(1)} s`);
console.log(`direct: ${perRound * ROUNDS} runScenario() calls at concurrency 8  ${(directMs / 1000).toFixed(1)} s`);
console.log(`orchestrator: ${g.runs} oracle runs at concurrency 8  ${(orchMs / 1000).toFixed(1)} s  (pass ${g.passed}, fail ${g.failed}, error ${g.errors})`);
console.log(`orchestrator / direct                          ${(orchMs / directMs).toFixed(2)}`);
console.log(`scenarios' own work / 8                        ${(scenarioMs / 8000).toFixed(1)} s  (daemon logs of ${spans} runs; the runner's scenario phases: ${(runnerPhaseMs / 8000).toFixed(1)} s)`);
console.log(`orchestrator overhead / floor                  ${(overheadMs / floorMs).toFixed(2)}  (goal ≤ 1.3)`);
console.log(`  minus the runner's scenario phases instead   ${((orchMs - runnerPhaseMs / 8) / floorMs).toFixed(2)}`);
console.log(`orchestrator wall / floor                      ${(orchMs / floorMs).toFixed(2)}`);
console.log(`CLI peak RSS at concurrency 32 (${rssReport.overall.runs} runs, exit ${rssCode})  ${mb(peak)} MB  (goal ≤ 150 MB)`);
console.log(`  for scale: this bench process under tsx used ${mb(rssStart)} MB before any run`);
if (g.errors || rssReport.overall.errors) console.log(`errors by kind: ${JSON.stringify({ ...g.errors_by_kind, ...rssReport.overall.errors_by_kind })}`);
