// A unit OOM-killed mid-run (issue T, docs/reliability.md): the unit's memory is limited (set on
// the created container before it starts, through the engine API) and a process inside it, as
// root, fills that memory after making every other process of the unit the kernel's first
// choice. The kernel kills the world daemon (the container's memory cgroup counts the kill) or
// the whole unit (the engine reports it), then the filler itself. The run
// ends `oom_killed` with the container's last log lines, is not restarted, the other run of the
// invocation passes, and `--retry` (without the fault) reruns only it.
import Docker from 'dockerode';
import { cpSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LABELS, type UnitBackend } from '../../runner/src/engine/index.js';
import { DEFAULT_IMAGE } from '../../runner/src/image/index.js';
import { resolveDataset } from '../../runner/src/dataset/index.js';
import { executePlan } from '../../runner/src/orchestrator/index.js';
import { RUN_DEFAULTS, type RunPlan } from '../../runner/src/plan/plan.js';
import { runScenario } from '../../runner/src/run/index.js';
import { connectE2eEngine, e2eEngines } from './helpers/engines.js';
import { recordFaultFigure } from './helpers/fault-run.js';

const root = join(import.meta.dirname, '..', '..');
const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
const docker = e2eEngines().find((e) => e.kind === 'docker');
const VICTIM = 'exec_messages_hike_group';
const BYSTANDER = 'exec_shopping_bottle_order';
const LIMIT = 256 << 20;

// Every process of the unit but the filler goes first (oom_score_adj 1000, raised again as new
// ones start); the filler then takes memory 16 MiB at a time, as fast as it can, until the limit is met
// (the oracle's run is over in about a second).
const FILL = [
  'sh',
  '-c',
  `(while :; do for p in /proc/[0-9]*; do grep -q oom-filler $p/cmdline 2>/dev/null || echo 1000 > $p/oom_score_adj 2>/dev/null; done; sleep 0.05; done) &
   sleep 0.05; exec node -e 'process.title="oom-filler"; const a = []; for (;;) a.push(Buffer.alloc(1 << 24, 1))' oom-filler`,
];

describe.skipIf(!docker)('a unit OOM-killed mid-run (real Docker Engine, a memory limit and a filler inside the unit)', () => {
  it('the run ends oom_killed, saying so, is not restarted, the other run passes; --retry reruns only it', async () => {
    const e = docker!;
    const engine = await connectE2eEngine(e);
    const api = new Docker({ socketPath: e.host.replace(/^unix:\/\//, '') });
    const work = mkdtempSync(join(tmpdir(), 'gaia2-oom-'));
    const data = join(work, 'data', 'execution');
    mkdirSync(data, { recursive: true });
    for (const id of [VICTIM, BYSTANDER]) cpSync(join(root, 'examples/scenarios/execution', `${id}.json`), join(data, `${id}.json`));
    let filled = 0;
    let fillerExit: number | null = null;
    const hooked: UnitBackend = Object.create(engine);
    hooked.create = async (spec) => {
      const h = await engine.create(spec);
      if (spec.labels[LABELS.scenarioId] !== VICTIM || filled) return h;
      filled++;
      await api.getContainer(h.id).update({ Memory: LIMIT, MemorySwap: LIMIT });
      const start = h.start.bind(h);
      h.start = async () => {
        await start();
        // The filler runs to its own end (killed once nothing else is left to kill) before the
        // runner goes on: the unit is out of memory while the run is starting up, every time.
        const x = await api.getContainer(h.id).exec({ Cmd: FILL, User: 'root', AttachStdout: true, AttachStderr: true });
        const stream = await x.start({});
        stream.resume();
        await new Promise((r) => stream.once('end', r));
        fillerExit = (await x.inspect()).ExitCode ?? null;
      };
      return h;
    };
    const plan = (retry = false): RunPlan => ({
      command: 'run-dataset',
      configPath: null,
      target: { kind: 'local', path: join(work, 'data'), recursive: true, splits: null, subset: null, limit: null },
      agent: { name: 'oracle', image, runtime: 'docker', provider: null, model: null, apiKey: null, baseUrl: null, thinking: 'low', tools: 'shell', maxTokens: null, volumes: [], script: null },
      judge: null,
      run: { ...RUN_DEFAULTS, outputDir: join(work, 'out'), concurrency: 2, timeout: 300, retry },
    });
    const quiet = { start() {}, done() {}, stop() {}, log() {} };
    try {
      const ds = await resolveDataset(plan().target, { env: {} });
      const t0 = Date.now();
      const first = await executePlan(plan(), ds, { engine: hooked, hostEnv: {}, runScenario, progress: quiet });
      const byId = new Map(first.results.map((r) => [r.scenario_id, r]));
      expect(byId.get(BYSTANDER)?.status).toBe('pass');
      const r = byId.get(VICTIM)!;
      expect([r.status, r.error_kind], `${r.error} (filler exit ${fillerExit})`).toEqual(['error', 'oom_killed']);
      // said by the world's stand-in (the daemon killed) or by the engine (the whole unit killed)
      expect(r.error).toMatch(/killed by signal 9, out of memory: the kernel killed it for the unit's memory limit|out of memory: killed for exceeding its memory limit/);
      expect(r.infra_restarts).toBeUndefined();
      expect(first.report.overall).toMatchObject({ passed: 1, errors: 1 });
      recordFaultFigure({ fault: 'a unit OOM-killed', engine: 'docker', runs: 2, passed: 1, restarts: 0, fault_s: null, wall_s: (Date.now() - t0) / 1000 });

      const again = await executePlan(plan(true), ds, { engine: hooked, hostEnv: {}, runScenario, progress: quiet });
      expect(again.ran).toBe(1);
      expect(again.report.overall).toMatchObject({ passed: 2, errors: 0 });
    } finally {
      await engine.close();
    }
  }, 240_000);
});
