// Runner overhead for one scenario run, as a ratio against the bare engine lifecycle measured
// in the same run, interleaved, on each engine (podman and a private Docker Engine):
//   baseline  = `<engine CLI> run --rm -p 127.0.0.1::8090 <image> true` (create, start, exit, remove)
//   runner    = runScenario() until its result is recorded (result.json written), minus the
//               scenario's own work as the world daemon logged it (eventd.log: "world ready" →
//               terminal status; bench/lib/daemon-span.ts). The container's removal is handed
//               over (onCleanup) as the orchestrator does: it runs after the result, off the
//               scenario's critical path; its time is printed beside, not counted. The image's
//               boot (entrypoint, node, world init) counts as overhead.
// Goal (issue H): runner / baseline ≤ 1.0 on both engines. Phases come from result.json `timings`.
// Run: npm run bench runner-overhead   (BENCH_N=9 for more samples; needs an idle machine)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_IMAGE } from '../runner/src/image/index.js';
import { runScenario, DEFAULT_TIMEOUTS } from '../runner/src/run/index.js';
import { daemonScenarioMs } from './lib/daemon-span.js';
import { benchEngines, type BenchEngine } from './lib/engines.js';

const image = process.env.GAIA2_BENCH_IMAGE ?? DEFAULT_IMAGE;
const scenario = join(import.meta.dirname, '..', 'examples/scenarios/execution/exec_shopping_bottle_order.json');
const N = Number(process.env.BENCH_N ?? 5);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function measure(e: BenchEngine): Promise<void> {
  const bare: number[] = [];
  const total: number[] = [];
  const phases: Record<string, number[]> = {};
  const overhead: number[] = [];
  const removal: number[] = [];
  const daemonSpan: number[] = [];
  // Interleaved (bare, runner, bare, runner, …) so a change of machine load hits both alike;
  // the first pair is a warm-up, not counted (a freshly built image's files are not in the page
  // cache yet, and the runner learns the image's boot time from its first run).
  for (let i = -1; i < N; i++) {
    let t0 = performance.now();
    execFileSync(e.cli[0]!, [...e.cli.slice(1), 'run', '--rm', '-p', '127.0.0.1::8090', '--entrypoint', 'true', image], { stdio: 'ignore' });
    const bareMs = performance.now() - t0;

    const out = mkdtempSync(join(tmpdir(), 'gaia2-bench-'));
    let cleanup: (() => Promise<void>) | null = null;
    t0 = performance.now();
    const r = await runScenario({
      engine: e.engine, image, scenarioFile: scenario, outputDir: out, env: {}, agent: 'oracle', network: 'bridge',
      timeouts: DEFAULT_TIMEOUTS, labels: { 'gaia2.bench': 'runner-overhead' },
      onCleanup: (c) => {
        cleanup = c;
      },
    });
    const ms = performance.now() - t0;
    t0 = performance.now();
    await (cleanup as (() => Promise<void>) | null)?.();
    const removalMs = performance.now() - t0;
    if (r.status !== 'pass') throw new Error(`oracle run on ${e.kind} did not pass: ${r.error ?? r.failure_reasons}`);
    if (i < 0) continue;
    bare.push(bareMs);
    removal.push(removalMs);
    const t = r.timings as Record<string, number>;
    for (const [k, v] of Object.entries(t)) (phases[k] ??= []).push(v);
    const span = daemonScenarioMs(readFileSync(join(out, 'eventd.log'), 'utf8'));
    if (span === null) throw new Error(`no scenario span in ${out}/eventd.log`);
    total.push(ms);
    daemonSpan.push(span);
    overhead.push(ms - span);
  }
  const b = median(bare);
  const o = median(overhead);
  console.log(`\n### ${e.kind} (${e.host})`);
  console.log(`bare \`${e.cli[0]} run --rm\` lifecycle   median ${b.toFixed(0)} ms  (n=${N})`);
  console.log(`runScenario until the result      median ${median(total).toFixed(0)} ms`);
  console.log(`scenario's own work (daemon log)  median ${median(daemonSpan).toFixed(0)} ms  (world ready → terminal status)`);
  console.log(`runner overhead (total − work)    median ${o.toFixed(0)} ms`);
  console.log(`phases (median ms): ${Object.entries(phases).map(([k, v]) => `${k.replace(/_ms$/, '')} ${median(v)}`).join(', ')}`);
  console.log(`removal after the result          median ${median(removal).toFixed(0)} ms  (background, not counted)`);
  console.log(`ratio overhead / bare             ${(o / b).toFixed(2)}  (goal ≤ 1.0)`);
}

const { engines, close } = await benchEngines(image);
try {
  for (const e of engines) await measure(e);
} finally {
  await close();
}
console.log(`\nload average ${loadavg().map((x) => x.toFixed(1)).join(' ')} (2 cores here: above ~1 the numbers are noisy)`);
