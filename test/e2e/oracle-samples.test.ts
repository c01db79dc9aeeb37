// Issue A/C acceptance through real containers: the oracle runtime on every sample scenario
// (one or more per split) ends `complete` with a passing judgment, the right number of turns,
// and per turn the same agent actions as the reference oracle replay (golden corpus).
import { readFileSync, readdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEventsJsonl, type ScenarioResult } from '@gaia2/contract';
import type { UnitBackend } from '../../runner/src/engine/index.js';
import { DEFAULT_IMAGE } from '../../runner/src/image/index.js';
import { DEFAULT_TIMEOUTS, runScenario } from '../../runner/src/run/index.js';
import { connectE2eEngine, eachEngine } from './helpers/engines.js';
import { agentTurns } from './helpers/turns.js';

const root = join(import.meta.dirname, '..', '..');
const golden = join(root, 'test/fixtures/golden');
const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;

interface GoldenCase { scenario: string; case: string; events: string; expected: { nb_turns: number } }
const oracleCases = readFileSync(join(golden, 'cases.jsonl'), 'utf8')
  .split('\n').filter(Boolean).map((l) => JSON.parse(l) as GoldenCase).filter((c) => c.case === 'oracle');

const samples = readdirSync(join(root, 'examples/scenarios')).flatMap((split) =>
  readdirSync(join(root, 'examples/scenarios', split)).map((f) => ({ split, file: join(root, 'examples/scenarios', split, f), id: f.replace(/\.json$/, '') })),
);

describe.each(eachEngine())('oracle runtime on the sample scenarios (real containers, %s)', (_kind, e2e) => {
  let engine: UnitBackend;
  const results = new Map<string, { result: ScenarioResult; dir: string }>();
  const runLabel = { 'gaia2.run-id': `e2e-oracle-${e2e.kind}-${process.pid}` };

  beforeAll(async () => {
    engine = await connectE2eEngine(e2e);
    const queue = [...samples];
    const worker = async () => {
      for (let s = queue.shift(); s; s = queue.shift()) {
        const dir = mkdtempSync(join(tmpdir(), `gaia2-e2e-${s.id}-`));
        const result = await runScenario({
          engine, image, scenarioFile: s.file, outputDir: dir, env: {}, agent: 'oracle', network: 'bridge',
          timeouts: { ...DEFAULT_TIMEOUTS, healthSeconds: 60, scenarioSeconds: 120 }, labels: runLabel, split: s.split,
        });
        results.set(s.id, { result, dir });
      }
    };
    await Promise.all([worker(), worker(), worker()]);
  });

  afterAll(async () => {
    await engine?.close();
  });

  it('covers every split', () => {
    expect(new Set(samples.map((s) => s.split))).toEqual(new Set(['execution', 'search', 'adaptability', 'time', 'ambiguity']));
  });

  it.each(samples.map((s) => [s.id, s] as const))('%s passes like the reference oracle', (id) => {
    const r = results.get(id);
    expect(r, `no result for ${id}`).toBeDefined();
    const { result, dir } = r!;
    expect(result.error ?? result.failure_reasons ?? null).toBeNull();
    expect(result.status).toBe('pass');
    expect(result.success).toBe(true);
    const status = JSON.parse(readFileSync(join(dir, 'daemon_status.json'), 'utf8'));
    expect(status.status).toBe('complete');
    const g = oracleCases.find((c) => c.scenario.endsWith(`/${id}.json`));
    expect(g, `golden oracle case for ${id}`).toBeDefined();
    expect(status.nb_turns).toBe(g!.expected.nb_turns);
    const ours = agentTurns(parseEventsJsonl(readFileSync(join(dir, 'events.jsonl'), 'utf8')));
    const theirs = agentTurns(parseEventsJsonl(readFileSync(join(golden, g!.events), 'utf8')));
    expect(ours).toEqual(theirs);
  });

  it('leaves no container of the run behind', async () => {
    expect(await engine.listByLabels(runLabel)).toEqual([]);
  });
});
