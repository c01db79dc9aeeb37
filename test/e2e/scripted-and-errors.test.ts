// Issue A acceptance through real containers: negative controls with the scripted runtime
// (an agent that does nothing, one that writes a wrong argument, one that does it right),
// a missing image, and no container of the run left behind after failures.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectEngine, type UnitBackend } from '../../runner/src/engine/index.js';
import { DEFAULT_IMAGE } from '../../runner/src/image/index.js';
import { DEFAULT_TIMEOUTS, runScenario, type ScenarioRunOptions } from '../../runner/src/run/index.js';

const root = join(import.meta.dirname, '..', '..');
const scenarioFile = join(root, 'examples/scenarios/execution/exec_shopping_bottle_order.json');
const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
const runLabel = { 'gaia2.run-id': `e2e-scripted-${process.pid}` };
const BOTTLE = 'ececbe590b923620bc5384dc4ef7bd0e';

let engine: UnitBackend;
beforeAll(async () => {
  engine = await connectEngine();
});
afterAll(async () => {
  await engine?.close();
});

function scripted(turns: unknown, extra: Partial<ScenarioRunOptions> = {}) {
  const outputDir = mkdtempSync(join(tmpdir(), 'gaia2-e2e-scripted-'));
  return runScenario({
    engine, image, scenarioFile, outputDir, agent: 'scripted', network: 'bridge', labels: runLabel,
    env: { GAIA2_SCRIPT: JSON.stringify(turns) },
    timeouts: { ...DEFAULT_TIMEOUTS, healthSeconds: 60, scenarioSeconds: 120 },
    ...extra,
  }).then((result) => ({ result, outputDir }));
}

describe('scripted runtime and failure paths (real containers)', () => {
  it('a scripted agent doing what the oracle does passes', async () => {
    const { result } = await scripted([
      {
        commands: [
          ['shopping', 'add-to-cart', '--item-id', BOTTLE, '--quantity', '2'],
          ['shopping', 'checkout', '--discount-code', 'HYDRATE5'],
        ],
        reply: 'Ordered two bottles with HYDRATE5.',
      },
    ]);
    expect(result.failure_reasons ?? result.error ?? null).toBeNull();
    expect(result.status).toBe('pass');
  });

  it('an agent that only replies fails with a count mismatch', async () => {
    const { result, outputDir } = await scripted([{ commands: [], reply: 'Done!' }]);
    expect(result.status).toBe('fail');
    expect(result.success).toBe(false);
    expect(result.failure_reasons?.[0]).toMatch(/Tool count mismatch/);
    expect(result.agent_response).toBe('Done!');
    expect(JSON.parse(readFileSync(join(outputDir, 'result.json'), 'utf8')).status).toBe('fail');
  });

  it('a wrong argument fails with the checker named in the reason', async () => {
    const { result } = await scripted([
      {
        commands: [
          ['shopping', 'add-to-cart', '--item-id', BOTTLE, '--quantity', '3'],
          ['shopping', 'checkout', '--discount-code', 'HYDRATE5'],
        ],
        reply: 'Ordered.',
      },
    ]);
    expect(result.status).toBe('fail');
    expect(result.failure_reasons?.[0]).toMatch(/Cannot match ShoppingApp__add_to_cart.*quantity/s);
  });

  it('a missing image is an error naming the image and how to build it', async () => {
    const outputDir = mkdtempSync(join(tmpdir(), 'gaia2-e2e-noimage-'));
    const result = await runScenario({
      engine, image: 'localhost/gaia2-agent:does-not-exist', scenarioFile, outputDir, agent: 'oracle', network: 'bridge',
      labels: runLabel, env: {}, timeouts: DEFAULT_TIMEOUTS,
    });
    expect(result.status).toBe('error');
    expect(result.error_kind).toBe('image_missing');
    expect(result.error).toMatch(/gaia2-agent:does-not-exist.*build-image/s);
    expect(JSON.parse(readFileSync(join(outputDir, 'result.json'), 'utf8')).error_kind).toBe('image_missing');
  });

  it('leaves no container of the run behind, failures included', async () => {
    expect(await engine.listByLabels(runLabel)).toEqual([]);
  });
});
