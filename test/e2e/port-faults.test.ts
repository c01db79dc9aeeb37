// A unit's host port goes wrong (docs/reliability.md): on the real podman, through the real
// orchestrator, the two ways it happens are made on purpose and each run must still pass in the
// same invocation, started again once in a new unit.
//  - port taken: podman picks a unit's host port at create and binds it only at start; a host
//    process that listens on it meanwhile makes the start fail ("address already in use").
//  - forward dropped: another container published on the same host port whose start fails takes
//    the running unit's port forward with it; the unit runs but never takes a connection.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectEngine, LABELS, type ContainerHandle, type UnitBackend } from '../../runner/src/engine/index.js';
import { DEFAULT_IMAGE } from '../../runner/src/image/index.js';
import { resolveDataset } from '../../runner/src/dataset/index.js';
import { recordFaultFigure } from './helpers/fault-run.js';
import { executePlan } from '../../runner/src/orchestrator/index.js';
import { RUN_DEFAULTS, type RunPlan } from '../../runner/src/plan/plan.js';
import { runScenario } from '../../runner/src/run/index.js';

const root = join(import.meta.dirname, '..', '..');
const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
const engines = (process.env.GAIA2_TEST_ENGINES ?? 'podman').split(',');
const hasPodman = spawnSync('podman', ['--version']).status === 0;
const TAKEN = 'exec_shopping_bottle_order';
const DROPPED = 'exec_messages_hike_group';

/** The host address a created unit's adapter port is published on. */
async function published(h: ContainerHandle): Promise<{ host: string; port: number }> {
  const u = new URL((await h.adapter(RUN_DEFAULTS.adapterPort)).url);
  return { host: u.hostname, port: Number(u.port) };
}

describe.skipIf(!hasPodman || !engines.includes('podman'))("a unit's host port goes wrong (real podman, the orchestrator)", () => {
  const work = mkdtempSync(join(tmpdir(), 'gaia2-port-faults-'));
  const listeners: net.Server[] = [];
  const sabotage: string[] = [];
  let engine: UnitBackend;
  let outcome: Awaited<ReturnType<typeof executePlan>>;
  const lines: string[] = [];

  beforeAll(async () => {
    engine = await connectEngine();
    const data = join(work, 'data', 'execution');
    mkdirSync(data, { recursive: true });
    for (const id of [TAKEN, DROPPED]) cpSync(join(root, 'examples/scenarios/execution', `${id}.json`), join(data, `${id}.json`));
    const seen = new Set<string>();
    // The real engine, with a hook after create and after start for each scenario's first unit.
    const hooked: UnitBackend = Object.create(engine);
    hooked.create = async (spec) => {
      const h = await engine.create(spec);
      const id = spec.labels[LABELS.scenarioId]!;
      if (seen.has(id)) return h;
      seen.add(id);
      const at = await published(h);
      if (id === TAKEN) {
        // a host process takes the port between create and start
        const s = net.createServer((c) => c.destroy());
        await new Promise<void>((r) => s.listen(at.port, at.host, r));
        listeners.push(s);
      }
      if (id === DROPPED) {
        const start = h.start.bind(h);
        h.start = async () => {
          await start();
          // another container on the same host port, whose start fails: the unit loses its forward
          const name = `gaia2-port-fault-${process.pid}`;
          sabotage.push(name);
          execFileSync('podman', ['create', '--name', name, '-p', `${at.host}:${at.port}:8000`, '--entrypoint', 'true', image], { stdio: 'ignore' });
          const r = spawnSync('podman', ['start', name], { encoding: 'utf8' });
          expect(r.status, 'the second start on the same port fails').not.toBe(0);
        };
      }
      return h;
    };
    const plan: RunPlan = {
      command: 'run-dataset',
      configPath: null,
      target: { kind: 'local', path: join(work, 'data'), recursive: true, splits: null, subset: null, limit: null },
      agent: { name: 'oracle', image, runtime: 'podman', provider: null, model: null, apiKey: null, baseUrl: null, thinking: 'low', tools: 'shell', maxTokens: null, volumes: [], script: null },
      judge: null,
      run: { ...RUN_DEFAULTS, outputDir: join(work, 'out'), concurrency: 2, healthTimeout: 10, timeout: 300 },
    };
    const ds = await resolveDataset(plan.target, { env: {} });
    const t0 = Date.now();
    outcome = await executePlan(plan, ds, {
      engine: hooked,
      hostEnv: {},
      runScenario,
      progress: { start() {}, done() {}, stop() {}, log: (l) => void lines.push(l) },
    });
    const restarts = outcome.results.reduce((n, r) => n + (r.infra_restarts ?? 0), 0);
    const passed = outcome.results.filter((r) => r.status === 'pass').length;
    recordFaultFigure({ fault: "a unit's host port taken at start; a forward dropped", engine: 'podman', runs: 2, passed, restarts, fault_s: null, wall_s: (Date.now() - t0) / 1000 });
  }, 240_000);

  afterAll(async () => {
    for (const s of listeners) s.close();
    for (const n of sabotage) spawnSync('podman', ['rm', '-f', n], { stdio: 'ignore' });
    await engine?.close();
  });

  const result = (id: string) => JSON.parse(readFileSync(join(work, 'out', 'execution', id, 'result.json'), 'utf8'));

  it('both runs pass in the one invocation, each started again once', () => {
    expect(outcome.results.map((r) => r.status), lines.join('\n')).toEqual(['pass', 'pass']);
    expect(result(TAKEN)).toMatchObject({ status: 'pass', infra_restarts: 1 });
    expect(result(DROPPED)).toMatchObject({ status: 'pass', infra_restarts: 1 });
  });

  it('the log names each cause, and each first attempt is kept aside with its error', () => {
    expect(lines).toContainEqual(`${TAKEN}: the engine could not bind the host port it gave its unit; starting it again in a new unit (once)`);
    expect(lines).toContainEqual(`${DROPPED}: its unit never took a connection on its published port; starting it again in a new unit (once)`);
    const firstError = (id: string) => {
      const dir = join(work, 'out', 'execution', '.attempts', id);
      const [attempt] = readdirSync(dir);
      return JSON.parse(readFileSync(join(dir, attempt!, 'result.json'), 'utf8')) as { error_kind: string; error: string };
    };
    expect(firstError(TAKEN)).toMatchObject({ error_kind: 'container_start_failed', error: expect.stringMatching(/address already in use/) });
    expect(firstError(DROPPED)).toMatchObject({ error_kind: 'health_timeout', error: expect.stringMatching(/nothing accepts connections on http:\/\/127\.0\.0\.1:\d+ yet\); its log ends: /) });
  });

  it('no unit of the run is left on the engine', async () => {
    const runId = JSON.parse(readFileSync(join(work, 'out', 'run_config.json'), 'utf8')).run_id as string;
    expect(await engine.listByLabels({ [LABELS.runId]: runId })).toEqual([]);
  });
});
