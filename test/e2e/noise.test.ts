// The Noise phase through real containers: GAIA2_NOISE reaches the image, injected tool
// failures and background events are recorded in the collected noise.jsonl and events.jsonl,
// the verdicts stay correct, and the same seed gives byte-identical noise.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_NOISE, DEFAULT_TOOL_AUGMENTATION, type NoiseSettings } from '@gaia2/contract/noise';
import { NOISE_EVENT_PREFIX, parseEventsJsonl } from '@gaia2/contract/events';
import { appForCli } from '../../agent-image/src/apps/catalog.js';
import { ToolNoise } from '../../agent-image/src/noise/index.js';
import { useEngine } from './helpers/engine.js';
import { DEFAULT_IMAGE } from '../../runner/src/image/index.js';
import { DEFAULT_TIMEOUTS, runScenario } from '../../runner/src/run/index.js';

const root = join(import.meta.dirname, '..', '..');
const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
const labels = { 'gaia2.run-id': `e2e-noise-${process.pid}` };
const BOTTLE_FILE = join(root, 'examples/scenarios/execution/exec_shopping_bottle_order.json');
const BOTTLE = 'ececbe590b923620bc5384dc4ef7bd0e';

const engine = useEngine();

async function run(scenarioFile: string, agent: 'oracle' | 'scripted', noise: NoiseSettings, script?: unknown) {
  const outputDir = mkdtempSync(join(tmpdir(), 'gaia2-e2e-noise-'));
  const result = await runScenario({
    engine: engine(), image, scenarioFile, outputDir, agent, network: 'bridge', labels,
    env: { GAIA2_NOISE: JSON.stringify(noise), ...(script ? { GAIA2_SCRIPT: JSON.stringify(script) } : {}) },
    timeouts: { ...DEFAULT_TIMEOUTS, healthSeconds: 60, scenarioSeconds: 120 },
  });
  const read = (f: string) => readFileSync(join(outputDir, f), 'utf8');
  const records = read('noise.jsonl').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  return { result, records, noiseText: read('noise.jsonl'), events: parseEventsJsonl(read('events.jsonl')) };
}

describe('Noise phase (real containers)', () => {
  it('a failed add-to-cart is recorded, leaves no event, and the retried order still passes', async () => {
    const scenario = JSON.parse(readFileSync(BOTTLE_FILE, 'utf8'));
    const add = ['shopping', 'add-to-cart', '--item-id', BOTTLE, '--quantity', '2'];
    const checkout = ['shopping', 'checkout', '--discount-code', 'HYDRATE5'];
    const ta = { ...DEFAULT_TOOL_AUGMENTATION, tool_failure_probability: 0.5 };
    const shopping = appForCli('shopping')!;
    // A seed whose first add-to-cart fails, the second succeeds, and checkout succeeds.
    const seed = [...Array(200).keys()].find((s) => {
      const t = new ToolNoise({ ...ta, seed: s }, scenario);
      return t.draw(add, shopping) !== null && t.draw(add, shopping) === null && t.draw(checkout, shopping) === null;
    })!;
    const r = await run(BOTTLE_FILE, 'scripted', { env_events: null, tool_augmentation: { ...ta, seed } }, [{ commands: [add, add, checkout], reply: 'Ordered.' }]);
    expect(r.records[0]).toMatchObject({ kind: 'settings' });
    expect(r.records.filter((x) => x.kind === 'tool_failure')).toEqual([
      expect.objectContaining({ tool: 'Shopping__add_to_cart', message: 'Calling Shopping__add_to_cart failed with error: Internal error - Retry again later' }),
    ]);
    expect(r.events.filter((e) => e.fn === 'add_to_cart')).toHaveLength(1);
    expect(r.result.status).toBe('pass');
  });

  it('oracle: background events fire and are recorded, the run passes, and the same seed repeats them byte for byte', async () => {
    // A 60 s horizon so that the noise arrives while the oracle waits for the price drop.
    const sc = JSON.parse(readFileSync(join(root, 'examples/scenarios/time/time_shopping_price_drop.json'), 'utf8'));
    sc.metadata.definition.duration = 60;
    const file = join(mkdtempSync(join(tmpdir(), 'gaia2-e2e-noise-sc-')), 'time_shopping_price_drop.json');
    writeFileSync(file, JSON.stringify(sc));
    const a = await run(file, 'oracle', DEFAULT_NOISE);
    const b = await run(file, 'oracle', DEFAULT_NOISE);
    expect(a.result.status).toBe('pass');
    const planned = a.records.filter((x) => x.kind === 'env_event');
    expect(planned.length).toBeGreaterThan(0);
    // Ids the apps generate (a new product's id, referenced by its items) are fresh uuids in every
    // world, as for the agent's own writes; everything the noise decides must repeat.
    const generated = new Set(['product_id', 'item_id']);
    const fired = (r: typeof a) =>
      r.events
        .filter((e) => e.event_id?.startsWith(NOISE_EVENT_PREFIX))
        .map((e) => [e.event_id, e.fn, Object.entries(e.args).filter(([k]) => !generated.has(k)), e.sim_t]);
    expect(fired(a).length).toBeGreaterThan(0);
    expect(b.noiseText).toBe(a.noiseText);
    expect(fired(b)).toEqual(fired(a));
    expect(b.result.status).toBe('pass');
  });
});
