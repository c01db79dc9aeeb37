// Runner reliability with real containers (issue E): a runner killed with SIGKILL mid-run
// loses nothing finished and --retry completes only the rest (and removes its leftovers);
// a container killed mid-run is a typed error that a retry turns into a pass; an engine
// that does not answer is a clear error within 2 s. On every e2e engine (podman, Docker).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUN_DEFAULTS, type RunPlan } from '../../runner/src/plan/plan.js';
import { resolveDataset } from '../../runner/src/dataset/index.js';
import { connectEngine, LABELS, type UnitBackend } from '../../runner/src/engine/index.js';
import { DEFAULT_IMAGE } from '../../runner/src/image/index.js';
import { executePlan } from '../../runner/src/orchestrator/index.js';
import { runScenario, type ScenarioRunOptions } from '../../runner/src/run/index.js';
import { ENV } from '@gaia2/contract/paths';
import { runCliInProcess } from '../runner/config/in-process-cli.js';
import { connectE2eEngine, eachEngine, engineEnv, killContainer, type E2eEngine } from './helpers/engines.js';

const root = join(import.meta.dirname, '..', '..');
const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
const samples = join(root, 'examples/scenarios');
const quiet = { start() {}, done() {}, log() {}, stop() {} };

function results(dir: string): Map<string, { status: string; mtime: number }> {
  const out = new Map<string, { status: string; mtime: number }>();
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (n.startsWith('.')) continue;
      if (statSync(p).isDirectory()) walk(p);
      else if (n === 'result.json') out.set(d.slice(dir.length + 1), { status: JSON.parse(readFileSync(p, 'utf8')).status, mtime: statSync(p).mtimeMs });
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

/** A private copy of three samples (two execution, one search), so a test's runs are its own. */
function threeSamples(prefix: string): string {
  const data = mkdtempSync(join(tmpdir(), prefix));
  for (const f of ['execution/exec_shopping_bottle_order.json', 'execution/exec_messages_hike_group.json', 'search/search_email_flight_code.json']) {
    mkdirSync(join(data, f.split('/')[0]!), { recursive: true });
    writeFileSync(join(data, f), readFileSync(join(samples, f)));
  }
  return data;
}

function cli(e2e: E2eEngine, args: string[]): { wait: Promise<number | null>; pid: number } {
  const p = spawn(process.execPath, [join(root, 'bin/gaia2-runner.mjs'), ...args], { cwd: root, env: { ...engineEnv(e2e), GAIA2_RUNNER_FROM_SOURCE: '1' }, stdio: 'ignore' });
  return { pid: p.pid!, wait: new Promise((r) => p.on('close', (code) => r(code))) };
}

function plan(out: string, extra: Partial<RunPlan['run']> = {}): RunPlan {
  return {
    command: 'run-dataset',
    configPath: null,
    target: { kind: 'local', path: samples, recursive: true, splits: null, subset: null, limit: null },
    agent: { name: 'oracle', image, runtime: 'podman', provider: null, model: null, apiKey: null, baseUrl: null, thinking: 'low', tools: 'shell', maxTokens: null, volumes: [], script: null },
    judge: null,
    run: { ...RUN_DEFAULTS, outputDir: out, timeout: 300, healthTimeout: 90, ...extra },
  };
}

describe.each(eachEngine())('runner reliability (real containers, %s)', (_kind, e2e) => {
  let engine: UnitBackend;
  beforeAll(async () => {
    engine = await connectE2eEngine(e2e);
  });
  afterAll(async () => {
    await engine?.close();
  });

  it('kill -9 of the runner mid-run: --retry keeps finished results and reruns only the rest', async () => {
    const out = mkdtempSync(join(tmpdir(), 'gaia2-kill9-'));
    const args = ['run-dataset', '-d', samples, '--agent', 'oracle', '-i', image, '-j', '2', '--output-dir', out, '--timeout', '300'];
    const first = cli(e2e, args);
    const deadline = Date.now() + 240_000;
    while ([...results(out).values()].filter((r) => r.status === 'pass').length < 2) {
      if (Date.now() > deadline) throw new Error('no run finished within 240 s');
      await new Promise((r) => setTimeout(r, 200));
    }
    process.kill(first.pid, 'SIGKILL');
    await first.wait;
    const before = results(out);
    const runId = JSON.parse(readFileSync(join(out, 'run_config.json'), 'utf8')).run_id as string;
    const finished = [...before].filter(([, r]) => r.status === 'pass');
    expect(finished.length).toBeGreaterThanOrEqual(2);
    expect(before.size).toBeLessThan(12);

    const second = cli(e2e, [...args, '--retry']);
    expect(await second.wait).toBe(0);
    const after = results(out);
    expect(after.size).toBe(12);
    expect([...after.values()].every((r) => r.status === 'pass')).toBe(true);
    for (const [k, r] of finished) expect(after.get(k)!.mtime).toBe(r.mtime); // not rerun
    expect(await engine.listByLabels({ [LABELS.runId]: runId })).toEqual([]); // leftovers removed
    const lines = readFileSync(join(out, 'results.jsonl'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(12);
  }, 900_000);

  it('kill -9 right after a result is recorded: the next start on that output dir (no --retry) removes what was left', async () => {
    const out = mkdtempSync(join(tmpdir(), 'gaia2-kill9-cleanup-'));
    const data = threeSamples('gaia2-kill9-data-');
    const args = ['run-dataset', '-d', data, '--agent', 'oracle', '-i', image, '-j', '2', '--output-dir', out, '--timeout', '300'];
    const first = cli(e2e, args);
    const deadline = Date.now() + 240_000;
    while (results(out).size < 1) {
      if (Date.now() > deadline) throw new Error('no run finished within 240 s');
      await new Promise((r) => setTimeout(r, 20));
    }
    process.kill(first.pid, 'SIGKILL'); // its container's removal, and the other lane's run, cut short
    await first.wait;
    const runId = JSON.parse(readFileSync(join(out, 'run_config.json'), 'utf8')).run_id as string;
    expect((await engine.listByLabels({ [LABELS.runId]: runId })).length).toBeGreaterThanOrEqual(1);

    const second = cli(e2e, args);
    expect(await second.wait).toBe(0);
    expect(await engine.listByLabels({ [LABELS.runId]: runId })).toEqual([]);
    const secondId = JSON.parse(readFileSync(join(out, 'run_config.json'), 'utf8')).run_id as string;
    expect(secondId).not.toBe(runId);
    expect(await engine.listByLabels({ [LABELS.runId]: secondId })).toEqual([]); // its own removals drained before exit
    expect([...results(out).values()].map((r) => r.status)).toEqual(['pass', 'pass', 'pass']);
  }, 600_000);

  it('SIGTERM mid-run: a clean stop (exit 130, its containers removed, finished results kept); a torn results.jsonl line is replaced by --retry, which completes the rest', async () => {
    const out = mkdtempSync(join(tmpdir(), 'gaia2-sigterm-'));
    const args = ['run-dataset', '-d', threeSamples('gaia2-sigterm-data-'), '--agent', 'oracle', '-i', image, '-j', '2', '--output-dir', out, '--timeout', '300'];
    const first = cli(e2e, args);
    const deadline = Date.now() + 240_000;
    while (results(out).size < 1) {
      if (Date.now() > deadline) throw new Error('no run finished within 240 s');
      await new Promise((r) => setTimeout(r, 50));
    }
    process.kill(first.pid, 'SIGTERM');
    expect(await first.wait).toBe(130);
    const runId = JSON.parse(readFileSync(join(out, 'run_config.json'), 'utf8')).run_id as string;
    expect(await engine.listByLabels({ [LABELS.runId]: runId })).toEqual([]); // stopped and removed before the exit
    const finished = [...results(out)].filter(([, r]) => r.status === 'pass');
    expect(finished.length).toBeGreaterThanOrEqual(1);
    expect(finished.length).toBeLessThan(3);
    // a crash in the middle of a line (a disk fault, a copy cut short): half a record at the end
    const jsonl = join(out, 'results.jsonl');
    writeFileSync(jsonl, `${readFileSync(jsonl, 'utf8')}{"scenario_id": "exec_shopping_bo`);

    const second = cli(e2e, [...args, '--retry']);
    expect(await second.wait).toBe(0);
    const after = results(out);
    expect([...after.values()].map((r) => r.status)).toEqual(['pass', 'pass', 'pass']);
    for (const [k, r] of finished) expect(after.get(k)!.mtime).toBe(r.mtime); // not rerun
    const lines = readFileSync(jsonl, 'utf8').trim().split('\n');
    expect(lines.map((l) => JSON.parse(l).status)).toEqual(['pass', 'pass', 'pass']);
  }, 600_000);

  it('a container killed mid-run is a typed error; a retry passes', async () => {
    const out = mkdtempSync(join(tmpdir(), 'gaia2-ckill-'));
    // A private copy with a unique id, so the killer can only ever hit our own container.
    const data = mkdtempSync(join(tmpdir(), 'gaia2-ckill-data-'));
    const id = `kill_me_${process.pid}`;
    // A time sample on a real-time clock (its events 20 and 30 simulated seconds in, ≈ 6 s at
    // ×10): an execution sample's oracle run, or one whose clock skips ahead, can end in half a
    // second, before the killer's look, and pass.
    const src = JSON.parse(readFileSync(join(samples, 'time/time_calendar_boat_trip.json'), 'utf8'));
    src.metadata.definition.scenario_id = id;
    mkdirSync(join(data, 'time'));
    writeFileSync(join(data, 'time', `${id}.json`), JSON.stringify(src));
    const p = (extra: Partial<RunPlan['run']> = {}): RunPlan => ({ ...plan(out, { timeSpeed: 10, ...extra }), target: { kind: 'local', path: data, recursive: true, splits: null, subset: null, limit: null } });
    const ds = await resolveDataset(p().target, { env: process.env });
    let killed = '';
    let busy = false;
    const killer = setInterval(async () => {
      if (killed || busy) return;
      busy = true;
      try {
        const running = (await engine.listByLabels({ [LABELS.scenarioId]: id })).filter((c) => c.state === 'running');
        if (running[0]) {
          killed = running[0].id;
          await killContainer(e2e, killed);
        }
      } catch {
        /* the container may already be gone */
      } finally {
        busy = false;
      }
    }, 100);
    const realtime = (o: ScenarioRunOptions) => runScenario({ ...o, env: { ...o.env, [ENV.clockMode]: 'realtime' } });
    const o1 = await executePlan(p(), ds, { engine, runScenario: realtime, progress: quiet });
    clearInterval(killer);
    expect(killed).not.toBe('');
    const r1 = o1.results[0]!;
    expect(r1.status).toBe('error');
    expect(['container_exited', 'health_timeout', 'activity_timeout', 'daemon_error', 'no_judgment']).toContain(r1.error_kind);
    const o2 = await executePlan(p({ retry: true }), ds, { engine, runScenario: realtime, progress: quiet });
    expect(o2.ran).toBe(1);
    expect(o2.results[0]!.status).toBe('pass');
    expect(o2.report.overall).toMatchObject({ passed: 1, errors: 0 });
  }, 600_000);

  it('clean removes leftover containers of one run by label, and only those', async () => {
    const runId = `e2e-clean-${process.pid}`;
    const mine = await engine.create({ image, env: {}, labels: { [LABELS.managed]: '1', [LABELS.runId]: runId }, entrypoint: ['sleep'], cmd: ['120'], network: 'bridge' });
    await mine.start();
    const other = await engine.create({ image, env: {}, labels: { [LABELS.managed]: '1', [LABELS.runId]: `${runId}-other` }, entrypoint: ['sleep'], cmd: ['120'], network: 'bridge' });
    const r = await runCliInProcess(['clean', '--run-id', runId], tmpdir(), { DOCKER_HOST: e2e.host });
    expect(r.code).toBe(0);
    expect(r.out).toContain('removed 1 container(s)');
    expect(await engine.listByLabels({ [LABELS.runId]: runId })).toEqual([]);
    expect(await engine.listByLabels({ [LABELS.runId]: `${runId}-other` })).toHaveLength(1);
    await other.remove();
  });
});

describe('runner reliability without an engine', () => {
  it('an engine that does not answer is a clear error in under 2 s', async () => {
    // A socket file with no server behind it: what a stopped podman service leaves behind.
    const dir = mkdtempSync(join(tmpdir(), 'gaia2-noengine-'));
    const sock = join(dir, 'podman.sock');
    const holder = spawn(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(sock)}, () => console.log('up'))`]);
    await new Promise<void>((r) => holder.stdout.once('data', () => r()));
    holder.kill('SIGKILL'); // the socket file stays, nobody listens
    await new Promise((r) => holder.once('close', r));
    expect(existsSync(sock)).toBe(true);
    const t0 = performance.now();
    const err = await connectEngine({ host: `unix://${sock}`, startPodman: false }).catch((e: Error) => e);
    const ms = performance.now() - t0;
    expect(err).toBeInstanceOf(Error);
    expect((err as { kind?: string }).kind).toBe('engine_unavailable');
    expect((err as Error).message.length).toBeGreaterThan(10);
    expect(ms).toBeLessThan(2000);
  });
});
