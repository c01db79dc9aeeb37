// Scale bench, the host runner's side (issue Q, items 4 and 5): what a universe of real size
// costs the runner, each measure beside the sample's in the same run, as a ratio.
//   collect  a finished run's artifacts to its run dir: GET /artifacts from the image's own
//            adapter server, then what the runner derives (event count, last reply, status)
//            and the files written. The run: the daemon in-process, the agent searching the
//            inbox twice (5 hits at 1×, 5,000 at 1,000×) and listing it once.
//   viewer   that run's trace.html (the viewer's page build, in-process), time and size.
//   collect  also through the JSON answer (base64, older images) in the same run: the baseline.
//   rss      the runner CLI (`run-config`, its own process) planning BENCH_RUNS scenarios
//            (default 800) and running them at -j BENCH_J (default 32) on the Kubernetes API
//            double's lightweight mode (in-process stand-ins for the adapter; the scenario
//            bytes really go through the upload), or with BENCH_BACKEND=local in real
//            containers of BENCH_IMAGE: peak RSS (VmHWM) with sample-sized scenarios and with
//            BENCH_MB-sized ones (default 5), the same run otherwise; per run in flight = the
//            difference / -j.
// Measured 2026-11-26, load average 11–15 on the 2-core VM (docs/runner.md has the tables):
//   96 × 5 MB at -j 32 on the double: peak 327 MB (1.45× the sample run), 3.2 MB per run in
//   flight; before the streamed routes 1,098 MB (6.55×), 29.1 MB per run in flight. Collect at
//   1,000× 86.7 ms through the tar answer, 106.6 ms through the JSON answer (0.81×).
// Usage: npx tsx bench/scale-runner.ts [--factors 1,1000] [--only collect|rss]
//        BENCH_BEFORE_ROOT=<another checkout with dist/>: the same datasets also through that
//        build's CLI (before/after). BENCH_WINDOW_S (default 600): a runner still going after
//        that long is stopped and its peak so far reported, marked "window".
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAdapterServer } from '../agent-image/src/adapter/server.js';
import { artifactPaths, readArtifacts } from '../agent-image/src/adapter/artifacts.js';
import { openArtifacts } from '../agent-image/src/adapter/artifacts-tar.js';
import { ENV } from '../agent-image/src/contract/index.js';
import { AdapterClient } from '../runner/src/run/adapter-client.js';
import { keepRunArtifacts } from '../runner/src/run/artifacts.js';
import { readCollected } from '../runner/src/run/collected.js';
import { buildScenarioPage } from '../runner/src/viewer/build/scenario-page.js';
import { ScenarioInfoCache } from '../runner/src/viewer/model/oracle.js';
import { runScripted } from './lib/scripted-world.js';
import { universe } from './lib/universe.js';

const arg = (name: string, def: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : def;
};
const only = arg('only', '');
const root = join(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'gaia2-scale-runner-'));
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const N = Number(process.env.BENCH_N ?? 5);
const INBOX = ['emails', 'search-emails', '--query', '@', '--folder-name', 'INBOX'];

interface CollectMeasure {
  scenarioMb: number;
  eventsMb: number;
  /** Through the tar answer (artifacts-tar), what the runner uses with our image. */
  collectMs: number;
  /** Through the JSON answer (base64), what older images give: the baseline. */
  collectJsonMs: number;
  /** The answer alone (request to last byte decoded), tar and JSON. */
  fetchMs: number;
  fetchJsonMs: number;
  viewerMs: number;
  pageMb: number;
}

/** The artifacts of a state dir, served the way the image's adapter serves them (its own paths, the trace files in the state dir). */
function artifactsOf(stateDir: string): Array<readonly [string, string]> {
  return artifactPaths({ [ENV.stateDir]: stateDir, [ENV.traceFile]: join(stateDir, 'trace.jsonl'), GAIA2_FAKETIME_FILE: join(stateDir, 'faketime.rc') });
}

/** One collect as the runner does it: fetch, derive the run's facts, write the files. */
async function collectOnce(fetch: () => Promise<{ files: Map<string, Buffer> }>, out: string): Promise<{ ms: number; fetchMs: number; got: ReturnType<typeof readCollected> }> {
  const t0 = performance.now();
  const { files } = await fetch();
  const fetchMs = performance.now() - t0;
  const got = readCollected(files);
  await keepRunArtifacts(out, files, got.agentResponse);
  return { ms: performance.now() - t0, fetchMs, got };
}

async function collectAndView(factor: number): Promise<CollectMeasure> {
  const dir = join(work, `collect-${factor}`);
  const stateDir = join(dir, 'state');
  mkdirSync(stateDir, { recursive: true });
  const text = universe(factor);
  const scenarioFile = join(dir, 'scenario.json');
  writeFileSync(scenarioFile, text);
  await runScripted(text, stateDir, [INBOX, ['emails', 'list-emails', '--limit', '5'], INBOX]);
  const token = 'bench-token';
  const { server } = createAdapterServer({
    backend: { status: () => null, connected: () => true, hasConnected: () => true, info: () => ({}), post: () => null },
    token,
    artifacts: () => readArtifacts(artifactsOf(stateDir)),
    artifactsTar: () => openArtifacts(artifactsOf(stateDir)),
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  const client = new AdapterClient({ url: `http://127.0.0.1:${port}` }, token, 60_000);
  const collects: number[] = [];
  const collectsJson: number[] = [];
  const fetches: number[] = [];
  const fetchesJson: number[] = [];
  const views: number[] = [];
  let pageBytes = 0;
  const scenarios = new ScenarioInfoCache();
  try {
    for (let i = 0; i < N; i++) {
      const out = join(dir, `run-${i}`, 'scenario');
      // The old way first (into a directory of its own), then the tar answer, each timed whole.
      const old = await collectOnce(() => client.artifacts(), join(dir, `json-${i}`));
      collectsJson.push(old.ms);
      fetchesJson.push(old.fetchMs);
      const { ms, fetchMs, got } = await collectOnce(() => client.artifactsTar(), out);
      collects.push(ms);
      fetches.push(fetchMs);
      if (got.agentResponse !== 'done') throw new Error(`collect at ${factor}×: no reply found`);
      writeFileSync(join(out, 'result.json'), JSON.stringify({ scenario_id: 'scenario', scenario_file: scenarioFile, status: 'pass', success: true }));
      // Each page build reads its scenario as a fresh build would (no cache shared across builds).
      const t1 = performance.now();
      const page = buildScenarioPage({ id: 'scenario', dir: out, prevHref: '', nextHref: '', homeHref: '../index.html' }, { runDir: join(dir, `run-${i}`), runName: 'bench', configSplits: [] }, i === 0 ? scenarios : new ScenarioInfoCache());
      views.push(performance.now() - t1);
      if ('error' in page) throw new Error(page.error);
      pageBytes = statSync(join(out, 'trace.html')).size;
    }
  } finally {
    await client.close();
    server.close();
  }
  return {
    scenarioMb: text.length / 1e6,
    eventsMb: statSync(join(stateDir, 'events.jsonl')).size / 1e6,
    collectMs: median(collects),
    collectJsonMs: median(collectsJson),
    fetchMs: median(fetches),
    fetchJsonMs: median(fetchesJson),
    viewerMs: median(views), pageMb: pageBytes / 1e6 };
}

// ---- runner RSS: BENCH_RUNS planned scenarios at -j BENCH_J on the Kubernetes double ----
const RUNS = Number(process.env.BENCH_RUNS ?? 800);
const J = Number(process.env.BENCH_J ?? 32);
const MB = Number(process.env.BENCH_MB ?? 5);
const beforeRoot = process.env.BENCH_BEFORE_ROOT ?? null;
const WINDOW_S = Number(process.env.BENCH_WINDOW_S ?? 600);
/** `kubernetes` (the API double's lightweight units, default) or `local`: real containers of BENCH_IMAGE on the local engine. */
const BACKEND = process.env.BENCH_BACKEND ?? 'kubernetes';
const IMAGE = process.env.BENCH_IMAGE ?? (BACKEND === 'local' ? 'localhost/gaia2-agent:latest' : 'registry.example/gaia2-agent:bench');

/** Copies of one scenario text under their own ids; returns the dataset's total bytes. */
function writeDataset(dir: string, text: string): number {
  const id = /"scenario_id": "([^"]+)"/.exec(text)![1]!;
  mkdirSync(join(dir, 'search'), { recursive: true });
  let total = 0;
  for (let i = 0; i < RUNS; i++) {
    const body = text.replace(`"scenario_id": "${id}"`, `"scenario_id": "bench_${i}"`);
    writeFileSync(join(dir, 'search', `bench_${i}.json`), body);
    total += Buffer.byteLength(body);
  }
  return total;
}

interface RssMeasure {
  datasetMb: number;
  peakMb: number;
  wallS: number;
  passed: number;
  /** Stopped after BENCH_WINDOW_S: the peak is of that window. */
  window: boolean;
}

/** One dataset of `text` copies, run by each CLI in turn. */
async function runnerRss(label: string, text: string, kubeconfig: string | null, roots: string[]): Promise<RssMeasure[]> {
  const dir = join(work, `rss-${label}`);
  const datasetMb = writeDataset(join(dir, 'data'), text) / 1e6;
  const out: RssMeasure[] = [];
  for (const r of roots) out.push(await runOnce(dir, datasetMb, kubeconfig, r));
  rmSync(join(dir, 'data'), { recursive: true, force: true });
  return out;
}

async function runOnce(dir: string, datasetMb: number, kubeconfig: string | null, runnerRoot: string): Promise<RssMeasure> {
  rmSync(join(dir, 'out'), { recursive: true, force: true });
  writeFileSync(
    join(dir, 'c.toml'),
    `[target]\ndataset_root = "data"\n[agent]\nname = "oracle"\nimage = ${JSON.stringify(IMAGE)}\n` +
      `[run]\nbackend = "${BACKEND}"\nconcurrency = ${J}\noutput_dir = "out"\nhealth_timeout = 600\ntimeout = 1200\n` +
      (kubeconfig ? `[kubernetes]\nkubeconfig = ${JSON.stringify(kubeconfig)}\n` : ''),
  );
  let peakKb = 0;
  const t0 = performance.now();
  const runner = spawn(process.execPath, [join(runnerRoot, 'bin/gaia2-runner.mjs'), 'run-config', join(dir, 'c.toml')], { stdio: ['ignore', 'ignore', 'inherit'] });
  const sampler = setInterval(() => {
    try {
      peakKb = Math.max(peakKb, Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${runner.pid}/status`, 'utf8'))?.[1] ?? 0));
    } catch {
      // exited
    }
  }, 50);
  let window = false;
  const stop = setTimeout(() => {
    window = true;
    runner.kill('SIGINT'); // the runner's Ctrl-C: it stops its units and leaves a resumable dir
  }, WINDOW_S * 1000);
  await new Promise<void>((resolve) => runner.on('exit', () => resolve()));
  clearTimeout(stop);
  clearInterval(sampler);
  const wallS = (performance.now() - t0) / 1000;
  let results: Array<{ status: string }> = [];
  try {
    results = readFileSync(join(dir, 'out', 'results.jsonl'), 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { status: string });
  } catch {
    // stopped before the first result
  }
  return { datasetMb, peakMb: peakKb / 1024, wallS, passed: results.filter((r) => r.status === 'pass').length, window };
}

/** The universe factor whose text is closest to `mb` megabytes (the size grows linearly). */
function universeOfSize(mb: number): string {
  const one = universe(1).length;
  const hundred = universe(100).length;
  const factor = Math.max(1, Math.round(1 + ((mb * 1e6 - one) * 99) / (hundred - one)));
  return universe(factor);
}

async function rssSection(): Promise<void> {
  const sandboxEnv = { ...process.env, K8SD_FAKE: '1', K8SD_FAKE_RUN_MS: process.env.BENCH_UNIT_MS ?? '2000', K8SD_STATE_DIR: join(work, 'sandbox') };
  const sandbox = (cmd: string) => execFileSync('bash', [join(root, 'scripts/k8s-sandbox.sh'), cmd], { env: sandboxEnv, encoding: 'utf8' }).trim();
  const kubeconfig = BACKEND === 'kubernetes' ? sandbox('start') : null;
  try {
    const roots = [root, ...(beforeRoot ? [beforeRoot] : [])];
    const small = await runnerRss('sample', universe(1), kubeconfig, roots);
    const large = await runnerRss('large', universeOfSize(MB), kubeconfig, roots);
    roots.forEach((r, k) => {
      const [s0, l0] = [small[k]!, large[k]!];
      const where = BACKEND === 'kubernetes' ? 'Kubernetes double, lightweight units' : `real containers of ${IMAGE} on the local engine`;
      console.log(`\nrunner RSS, ${RUNS} scenarios planned and run, -j ${J} (${where}), CLI of ${r}`);
      for (const [name, m] of [['sample', s0], [`${MB} MB`, l0]] as const) {
        console.log(`  ${name.padEnd(7)} dataset ${m.datasetMb.toFixed(0).padStart(5)} MB  peak RSS ${m.peakMb.toFixed(0).padStart(5)} MB  ${(m.peakMb / s0.peakMb).toFixed(2)}× the sample's  ${m.passed}/${RUNS} passed in ${m.wallS.toFixed(0)} s${m.window ? ` (stopped after ${WINDOW_S} s: peak of that window)` : ''}`);
      }
      const extra = l0.peakMb - s0.peakMb;
      console.log(`  peak RSS beyond the sample run: ${extra.toFixed(0)} MB = ${((extra / l0.datasetMb) * 100).toFixed(2)}% of the ${l0.datasetMb.toFixed(0)} MB dataset, ${(extra / (l0.datasetMb / RUNS)).toFixed(1)} scenarios' worth; per run in flight ${(extra / J).toFixed(1)} MB (${(extra / J / (l0.datasetMb / RUNS)).toFixed(2)}× one scenario, -j ${J})`);
    });
  } finally {
    if (kubeconfig) sandbox('stop');
  }
}

try {
  if (only !== 'rss') {
    const factors = arg('factors', '1,1000').split(',').map(Number);
    const results: Array<[number, CollectMeasure]> = [];
    for (const f of factors) results.push([f, await collectAndView(f)]);
    const [, base] = results[0]!;
    console.log(`collect and viewer page (median of ${N}), ratios to the ${factors[0]}× sample`);
    for (const [f, m] of results) {
      console.log(
        `  ${String(f).padStart(5)}×  scenario ${m.scenarioMb.toFixed(2)} MB, events.jsonl ${m.eventsMb.toFixed(2)} MB` +
          `  collect ${m.collectMs.toFixed(1)} ms ${(m.collectMs / base.collectMs).toFixed(1)}× (JSON answer ${m.collectJsonMs.toFixed(1)} ms: tar ${(m.collectMs / m.collectJsonMs).toFixed(2)}× of it)` +
          `  viewer page ${m.viewerMs.toFixed(1)} ms ${(m.viewerMs / base.viewerMs).toFixed(1)}× (${m.pageMb.toFixed(2)} MB page)` +
          `  the answer alone: tar ${m.fetchMs.toFixed(1)} ms, JSON ${m.fetchJsonMs.toFixed(1)} ms (${(m.fetchMs / m.fetchJsonMs).toFixed(2)}×)` +
          `  per MB of events: collect ${(m.collectMs / m.eventsMb).toFixed(1)} ms (JSON ${(m.collectJsonMs / m.eventsMb).toFixed(1)} ms), page ${(m.viewerMs / m.eventsMb).toFixed(1)} ms`,
      );
    }
  }
  if (only !== 'collect') await rssSection();
} finally {
  rmSync(work, { recursive: true, force: true });
}
