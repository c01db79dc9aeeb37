// A dataset run through an engine outage (the orchestrator with a fake engine whose ping fails
// for a while): queued runs wait, the outage's victims start again from scratch and pass, their
// partial output moved aside; a run's own failures are never retried; an engine that stays away
// past the limit leaves engine_unavailable results, in bounded time.
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RunPlan } from '../../../runner/src/plan/plan.js';
import { resolveDataset } from '../../../runner/src/dataset/index.js';
import { executePlan } from '../../../runner/src/orchestrator/index.js';
import { writeScenario } from '../dataset/make-scenario.js';
import { fakeEngine, fakeRuns, localPlan, recordingProgress, type Outcome } from './fakes.js';

let root: string;
let data: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'outage-'));
  data = join(root, 'data');
  for (const id of ['s_a', 's_b', 's_c', 's_d']) writeScenario(join(data, `search/${id}.json`), id);
});

const out = () => join(root, 'out');
const plan = (run: Partial<RunPlan['run']> = {}): RunPlan => localPlan(data, out(), { concurrency: 2, ...run });

/** The engine is away from the first failure of a `downOn` kind until `downMs` later (null: for good). */
async function exec(p: RunPlan, decide: (id: string, run: number, attempt: number, down: boolean) => Outcome, downMs: number | null, ms: (id: string) => number = () => 20, downOn = ['engine_unavailable']) {
  const engine = fakeEngine();
  let downSince: number | null = null;
  const isDown = () => downSince !== null && (downMs === null || Date.now() - downSince < downMs);
  engine.ping = async () => {
    if (isDown()) throw Object.assign(new Error('connect ENOENT /run/podman/podman.sock'), { code: 'ENOENT' });
  };
  const runs = fakeRuns((id, run, attempt) => {
    const o = decide(id, run, attempt, isDown());
    if (typeof o === 'object' && downOn.includes(o.kind) && downSince === null) downSince = Date.now();
    return o;
  }, { ms, engine, cleanupMs: 1 });
  const progress = recordingProgress();
  const ds = await resolveDataset(p.target, { env: {} });
  const outcome = await executePlan(p, ds, { engine, runScenario: runs.fn, progress, hostEnv: {}, outageTiming: { baseMs: 10, maxMs: 50, settleMs: 0, watchMs: 100 } });
  return { outcome, runs, progress, engine };
}

const result = (id: string) => JSON.parse(readFileSync(join(out(), 'search', id, 'result.json'), 'utf8'));

describe('an engine outage mid-run', () => {
  it("its victims start again once the engine answers and pass; queued runs wait; nothing needs --retry", async () => {
    const started: Array<{ id: string; down: boolean }> = [];
    const { outcome, progress, engine } = await exec(
      plan(),
      (id, _run, attempt, down) => {
        started.push({ id, down });
        return (id === 's_b' || id === 's_c') && attempt === 1 ? { status: 'error', kind: 'engine_unavailable' } : 'pass';
      },
      300,
    );
    expect(outcome.report.overall).toMatchObject({ passed: 4, errors: 0 });
    expect(result('s_b').infra_restarts).toBe(1);
    expect(result('s_c').infra_restarts).toBe(1);
    expect(result('s_a').infra_restarts).toBeUndefined();
    expect(result('s_d').infra_restarts).toBeUndefined();
    // results.jsonl carries the count too, and the failed attempt's files were moved aside
    const lines = readFileSync(join(out(), 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.filter((l) => l.infra_restarts === 1).map((l) => l.scenario_id).sort()).toEqual(['s_b', 's_c']);
    expect(existsSync(join(out(), 'search', 's_b', 'artifact-attempt-1.txt'))).toBe(false);
    expect(readdirSync(join(out(), 'search', '.attempts', 's_b'))).toHaveLength(1);
    // no run's outcome was decided while the engine was away: lanes waited on the gate
    expect(started.filter((s) => s.down)).toEqual([]);
    expect(progress.lines.some((l) => /^engine unreachable, waiting/.test(l))).toBe(true);
    expect(progress.lines.some((l) => /^engine back after \d+s/.test(l))).toBe(true);
    expect(progress.lines.some((l) => /s_b: engine_unavailable while the engine was away; starting it again from scratch \(restart 1 of at most 2\)/.test(l))).toBe(true);
    expect(engine.containers).toEqual([]);
  });

  it('a lost container (container_exited) is restarted when the engine was seen away during its run, not otherwise', async () => {
    const { outcome } = await exec(
      plan({ concurrency: 4 }),
      (id, _run, attempt) => {
        if (id === 's_a' && attempt === 1) return { status: 'error', kind: 'engine_unavailable' };
        if (id === 's_b' && attempt === 1) return { status: 'error', kind: 'container_exited' };
        return 'pass';
      },
      100,
      (id) => (id === 's_b' ? 80 : 20), // s_b's container is found gone after s_a met the outage
    );
    expect(outcome.report.overall).toMatchObject({ passed: 4, errors: 0 });
    expect(result('s_b').infra_restarts).toBe(1);

    const calm = await exec(plan(), (id) => (id === 's_b' ? { status: 'error', kind: 'container_exited' } : 'pass'), null);
    expect(calm.runs.calls).toHaveLength(4);
    expect(calm.outcome.report.overall).toMatchObject({ passed: 3, errors: 1 });
    expect(calm.progress.lines.some((l) => l.includes('engine unreachable'))).toBe(false);
  });

  it("a run's own failures are never retried", async () => {
    const { runs, outcome } = await exec(plan(), (id) => (id === 's_a' ? { status: 'error', kind: 'image_missing' } : id === 's_b' ? 'fail' : 'pass'), null);
    expect(runs.calls).toHaveLength(4);
    expect(outcome.report.overall).toMatchObject({ passed: 2, failed: 1, errors: 1 });
  });

  it('a run the outage keeps failing stops after 2 restarts, with its last result and the count', async () => {
    const { runs } = await exec(plan(), (id) => (id === 's_a' ? { status: 'error', kind: 'engine_unavailable' } : 'pass'), 30);
    expect(runs.calls.filter((c) => c.scenarioFile.endsWith('s_a.json'))).toHaveLength(3);
    expect(result('s_a')).toMatchObject({ status: 'error', error_kind: 'engine_unavailable', infra_restarts: 2 });
  });

  it('an engine away past the limit: runs end engine_unavailable (no restarts), finished ones kept, in bounded time', async () => {
    const t0 = Date.now();
    const { outcome, progress } = await exec(
      plan({ engineOutageWait: 1, concurrency: 1 }),
      (id, _run, _attempt, down) => (id === 's_a' ? 'pass' : id === 's_b' || down ? { status: 'error', kind: 'engine_unavailable' } : 'pass'),
      null,
    );
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(outcome.report.overall).toMatchObject({ passed: 1, errors: 3 });
    expect(result('s_a').status).toBe('pass');
    expect(progress.lines.filter((l) => /^engine still unreachable after 1s: giving up/.test(l))).toHaveLength(1);
  });

  it('limit 0 (--engine-outage-wait 0): no waiting, no restarts', async () => {
    const { runs } = await exec(plan({ engineOutageWait: 0 }), (id) => (id === 's_a' ? { status: 'error', kind: 'engine_unavailable' } : 'pass'), 1000);
    expect(runs.calls).toHaveLength(4);
  });

  it('a unit whose host port went wrong (never took a connection; port taken at start) starts again once, engine up; a second time it stands', async () => {
    const unreachable = { status: 'error', kind: 'health_timeout', message: 'the scenario could not be delivered and the agent was not ready within 60s (nothing accepts connections on http://127.0.0.1:33103 yet)' } as const;
    const slow = { status: 'error', kind: 'health_timeout', message: 'agent not ready within 60s (adapter answers but the agent is not connected yet)' } as const;
    const taken = { status: 'error', kind: 'container_start_failed', message: 'starting container g2-x: (HTTP 500) cannot listen on the TCP port: listen tcp4 127.0.0.1:41234: bind: address already in use' } as const;
    const { outcome, runs, progress } = await exec(
      plan(),
      (id, _run, attempt) => (id === 's_a' && attempt === 1 ? unreachable : id === 's_b' ? unreachable : id === 's_c' ? slow : id === 's_d' && attempt === 1 ? taken : 'pass'),
      null,
    );
    const calls = (id: string) => runs.calls.filter((c) => c.scenarioFile.endsWith(`${id}.json`)).length;
    expect([calls('s_a'), calls('s_b'), calls('s_c'), calls('s_d')]).toEqual([2, 2, 1, 2]);
    expect(result('s_d')).toMatchObject({ status: 'pass', infra_restarts: 1 });
    expect(result('s_a')).toMatchObject({ status: 'pass', infra_restarts: 1 });
    expect(result('s_b')).toMatchObject({ status: 'error', error_kind: 'health_timeout', infra_restarts: 1 });
    // an adapter that answered is the agent's own slowness: never restarted
    expect(result('s_c').infra_restarts).toBeUndefined();
    expect(outcome.report.overall).toMatchObject({ passed: 2, errors: 2 });
    expect(progress.lines.filter((l) => /never took a connection on its published port; starting it again/.test(l))).toHaveLength(2);
    expect(progress.lines.filter((l) => /s_d: the engine could not bind the host port it gave its unit; starting it again in a new unit \(once\)/.test(l))).toHaveLength(1);
    expect(readdirSync(join(out(), 'search', '.attempts', 's_a'))).toHaveLength(1);
  });

  it('a unit stopped from outside (clean exit mid-run) starts again, engine up or not; a killed one does not; a refused start only if the engine then goes away', async () => {
    const stopped = { status: 'error', kind: 'container_exited', message: 'container exited (code 0): entrypoint: world daemon started' } as const;
    const killed = { status: 'error', kind: 'container_exited', message: 'container exited (code 137)' } as const;
    const refused = { status: 'error', kind: 'container_start_failed', message: 'starting container g: failed to update store for object type *libnetwork.endpoint' } as const;
    const { runs, progress } = await exec(plan(), (id, _run, attempt) => (attempt === 1 && id === 's_a' ? stopped : id === 's_b' ? killed : id === 's_c' ? refused : 'pass'), null);
    const calls = (id: string) => runs.calls.filter((c) => c.scenarioFile.endsWith(`${id}.json`)).length;
    expect([calls('s_a'), calls('s_b'), calls('s_c'), calls('s_d')]).toEqual([2, 1, 1, 1]);
    expect(result('s_a')).toMatchObject({ status: 'pass', infra_restarts: 1 });
    expect(result('s_b')).toMatchObject({ status: 'error', error_kind: 'container_exited' });
    expect(result('s_c')).toMatchObject({ status: 'error', error_kind: 'container_start_failed' });
    expect(progress.lines.some((l) => /s_a: its unit was stopped from outside the run \(an engine restart or a manual stop\); starting it again from scratch \(restart 1 of at most 2\)/.test(l))).toBe(true);

    // the same refused start with the engine gone just after (a dockerd shutting down): an outage, waited out, restarted
    const away = await exec(plan(), (id, _run, attempt) => (id === 's_c' && attempt === 1 ? refused : 'pass'), 150, () => 20, ['container_start_failed']);
    expect(away.outcome.report.overall).toMatchObject({ passed: 4, errors: 0 });
    expect(JSON.parse(readFileSync(join(out(), 'search', 's_c', 'result.json'), 'utf8'))).toMatchObject({ status: 'pass', infra_restarts: 1 });
    expect(away.progress.lines.some((l) => /s_c: container_start_failed while the engine was away; starting it again/.test(l))).toBe(true);
  });
});
