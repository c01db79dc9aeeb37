// Runner overhead for one scenario run, as a ratio against the bare engine lifecycle
// measured in the same run, interleaved:
//   baseline  = `podman run --rm -p 127.0.0.1::8090 <image> true` (create, start, exit, remove)
//   runner    = runScenario() total minus the scenario's own work, as the world daemon logged
//               it (eventd.log: "world ready" → terminal status: the oracle's actions and the
//               judge; bench/lib/daemon-span.ts). The image's boot (entrypoint, node, world
//               init) counts as overhead. Printed beside it: the ratio with the runner's own
//               scenario phase subtracted instead (it undercounts the scenario's work), and the
//               engine phases alone (create, start, collect, remove).
// Goal (issue A): runner / baseline ≤ 1.2. Phase medians come from result.json `timings`.
// Run: npm run bench runner-overhead   (BENCH_N=9 for more samples; needs an idle machine)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectEngine } from '../runner/src/engine/index.js';
import { DEFAULT_IMAGE } from '../runner/src/image/index.js';
import { runScenario, DEFAULT_TIMEOUTS } from '../runner/src/run/index.js';
import { daemonScenarioMs } from './lib/daemon-span.js';

const image = process.env.GAIA2_BENCH_IMAGE ?? DEFAULT_IMAGE;
const scenario = join(import.meta.dirname, '..', 'examples/scenarios/execution/exec_shopping_bottle_order.json');
const N = Number(process.env.BENCH_N ?? 5);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const engine = await connectEngine();
const bare: number[] = [];
const total: number[] = [];
const phases: Record<string, number[]> = {};
const overhead: number[] = [];
const overheadRunnerPhase: number[] = [];
const engineOnly: number[] = [];
const daemonSpan: number[] = [];
// Interleaved (bare, runner, bare, runner, …) so a change of machine load hits both alike;
// the first pair is a warm-up, not counted (a freshly built image's files are not in the page
// cache yet, and the runner learns the image's boot time from its first run).
for (let i = -1; i < N; i++) {
  let t0 = performance.now();
  execFileSync('podman', ['run', '--rm', '-p', '127.0.0.1::8090', '--entrypoint', 'true', image], { stdio: 'ignore' });
  const bareMs = performance.now() - t0;

  const out = mkdtempSync(join(tmpdir(), 'gaia2-bench-'));
  t0 = performance.now();
  const r = await runScenario({
    engine, image, scenarioFile: scenario, outputDir: out, env: {}, agent: 'oracle', network: 'bridge',
    timeouts: DEFAULT_TIMEOUTS, labels: { 'gaia2.bench': 'runner-overhead' },
  });
  const ms = performance.now() - t0;
  if (r.status !== 'pass') throw new Error(`oracle run did not pass: ${r.error ?? r.failure_reasons}`);
  if (i < 0) continue;
  bare.push(bareMs);
  const t = r.timings as Record<string, number>;
  for (const [k, v] of Object.entries(t)) (phases[k] ??= []).push(v);
  const span = daemonScenarioMs(readFileSync(join(out, 'eventd.log'), 'utf8'));
  if (span === null) throw new Error(`no scenario span in ${out}/eventd.log`);
  total.push(ms);
  daemonSpan.push(span);
  overhead.push(ms - span);
  overheadRunnerPhase.push(ms - (t.scenario_ms ?? 0));
  engineOnly.push((t.create_ms ?? 0) + (t.start_ms ?? 0) + (t.collect_ms ?? 0) + (t.remove_ms ?? 0));
}
await engine.close();

const b = median(bare);
const o = median(overhead);
console.log(`bare podman run --rm lifecycle   median ${b.toFixed(0)} ms  (n=${N})`);
console.log(`runScenario total                median ${median(total).toFixed(0)} ms`);
console.log(`scenario's own work (daemon log) median ${median(daemonSpan).toFixed(0)} ms  (world ready → terminal status)`);
console.log(`runner overhead (total − work)   median ${o.toFixed(0)} ms`);
console.log(`phases (median ms): ${Object.entries(phases).map(([k, v]) => `${k.replace(/_ms$/, '')} ${median(v)}`).join(', ')}`);
console.log(`ratio overhead / bare            ${(o / b).toFixed(2)}  (goal ≤ 1.2)`);
console.log(`  minus the runner's scenario phase instead  ${(median(overheadRunnerPhase) / b).toFixed(2)}`);
console.log(`  engine phases only             ${(median(engineOnly) / b).toFixed(2)}  (create, start, collect, remove)`);
console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(' ')} (2 cores here: above ~1 the numbers are noisy)`);
