// The runner parses each scenario once (issue Q, item 2): the dataset's read is the only
// parse; a run gets the facts from the plan and delivers the file's bytes unchanged.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RunPlan } from '../../../runner/src/plan/plan.js';
import { resolveDataset, scenarioParses } from '../../../runner/src/dataset/index.js';
import { executePlan } from '../../../runner/src/orchestrator/index.js';
import { contentBytes, EngineError, LABELS, type ContainerSpec } from '../../../runner/src/engine/index.js';
import { sha256File } from '../../../runner/src/fsutil/hash.js';
import { runScenario, DEFAULT_TIMEOUTS } from '../../../runner/src/run/index.js';
import { CONTAINER_PATHS } from '@gaia2/contract';
import { fakeEngine, localPlan, recordingProgress } from '../orchestrator/fakes.js';
import { scenarioJson } from '../dataset/make-scenario.js';

let root: string;
let data: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'one-parse-'));
  data = join(root, 'data');
});

/** Bytes a JSON re-serialisation would change: spacing, key order, a float written as 1.0. */
function oddBytes(id: string): string {
  const body = JSON.stringify(scenarioJson(id), null, 3);
  return body.replace('"duration": 120', '"duration": 120.0');
}

/** An engine that records what each create() received and refuses to start anything. */
function capturingEngine() {
  const created: ContainerSpec[] = [];
  const engine = fakeEngine();
  engine.images.labels = async () => ({}); // a reference image: every file goes in at create
  engine.create = async (spec) => {
    created.push(spec);
    throw new EngineError('container_start_failed', 'this test starts nothing');
  };
  return { engine, created };
}

const plan = (): RunPlan => localPlan(data, join(root, 'out'), { concurrency: 2 });

const runOptions = (engine: ReturnType<typeof capturingEngine>['engine'], scenarioFile: string) => ({
  engine,
  image: 'img',
  scenarioFile,
  outputDir: null,
  env: {},
  agent: 'oracle',
  network: 'bridge' as const,
  timeouts: DEFAULT_TIMEOUTS,
  labels: {},
});

describe('one parse of each scenario', () => {
  it('a planned run parses nothing again and delivers the file byte for byte', async () => {
    mkdirSync(join(data, 'search'), { recursive: true });
    const files = ['a', 'b', 'c'].map((id) => {
      const f = join(data, 'search', `${id}.json`);
      writeFileSync(f, oddBytes(id));
      return f;
    });
    const before = scenarioParses.count;
    const ds = await resolveDataset(plan().target, { env: {} });
    expect(scenarioParses.count - before).toBe(3);
    const { engine, created } = capturingEngine();
    await executePlan(plan(), ds, { engine, runScenario, progress: recordingProgress(), hostEnv: {} });
    // the three runs reached the engine without one more parse
    expect(created).toHaveLength(3);
    expect(scenarioParses.count - before).toBe(3);
    for (const spec of created) {
      // Streamed from disk when sent (never held whole): read here as the engine would.
      const delivered = await contentBytes(spec.files!.find((f) => f.path === CONTAINER_PATHS.scenario)!.content);
      const id = spec.labels[LABELS.scenarioId]!;
      expect(Buffer.compare(delivered, readFileSync(files.find((f) => f.endsWith(`/${id}.json`))!))).toBe(0);
    }
    // the run record's hashes come from the same read
    const cfg = JSON.parse(readFileSync(join(root, 'out', 'run_config.json'), 'utf8')) as { scenario_hashes?: Record<string, string> };
    const hashes = Object.values(cfg.scenario_hashes ?? {});
    expect(hashes).toEqual(files.map((f) => sha256File(f)));
  });

  it('a file changed after planning is refused, naming the file, and is not parsed again', async () => {
    const f = join(data, 's.json');
    mkdirSync(data, { recursive: true });
    writeFileSync(f, oddBytes('s'));
    const ds = await resolveDataset(plan().target, { env: {} });
    writeFileSync(f, oddBytes('s').replace('"hi"', '"changed"'));
    const before = scenarioParses.count;
    const { engine, created } = capturingEngine();
    const r = await runScenario({ ...runOptions(engine, f), scenario: ds.entries[0]! });
    expect(r).toMatchObject({ status: 'error', error_kind: 'invalid_scenario' });
    expect(r.error).toContain(f);
    expect(r.error).toContain('changed after the run was planned');
    expect(created).toHaveLength(0);
    expect(scenarioParses.count).toBe(before);
  });

  it('a run outside a plan parses the file once, and a bad file names the file and the field', async () => {
    mkdirSync(data, { recursive: true });
    const good = join(data, 'good.json');
    writeFileSync(good, oddBytes('good'));
    const bad = join(data, 'bad.json');
    writeFileSync(bad, JSON.stringify(scenarioJson('bad', { events: [{ event_type: 'USER', event_id: 7 }] })));
    const { engine, created } = capturingEngine();
    const before = scenarioParses.count;
    await runScenario(runOptions(engine, good));
    expect(scenarioParses.count - before).toBe(1);
    expect(Buffer.compare(created[0]!.files![0]!.content as Buffer, readFileSync(good))).toBe(0);
    const r = await runScenario(runOptions(engine, bad));
    expect(r).toMatchObject({ status: 'error', error_kind: 'invalid_scenario' });
    expect(r.error).toContain(bad);
    expect(r.error).toContain('field "events.0.event_id"');
  });
});
