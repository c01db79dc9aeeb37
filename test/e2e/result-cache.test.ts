// The result cache with a real container and the real image id: the second identical run of a
// scenario starts no container and carries the first run's artifacts.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planFromRunFlags } from '../../runner/src/config/cli-flags.js';
import { resolveDataset } from '../../runner/src/dataset/index.js';
import { connectEngine, type UnitBackend } from '../../runner/src/engine/index.js';
import { DEFAULT_IMAGE } from '../../runner/src/image/index.js';
import { executePlan } from '../../runner/src/orchestrator/index.js';
import { runScenario, type ScenarioRunOptions } from '../../runner/src/run/index.js';

const root = join(import.meta.dirname, '..', '..');
const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
const scenario = join(root, 'examples/scenarios/execution/exec_shopping_bottle_order.json');

let engine: UnitBackend;
beforeAll(async () => {
  engine = await connectEngine();
});
afterAll(async () => {
  await engine?.close();
});

describe('result cache with real containers', () => {
  it('reuses a judged oracle run: no second container, same artifacts, marked as reused', async () => {
    const base = mkdtempSync(join(tmpdir(), 'gaia2-rcache-e2e-'));
    const env = { GAIA2_RESULT_CACHE: join(base, 'cache') };
    let containers = 0;
    const once = async (out: string) => {
      const plan = planFromRunFlags(
        { scenario, image, agent: 'oracle', runtime: 'podman', adapterPort: '8090', timeout: '120', healthTimeout: '60', activityTimeout: '120', thinking: 'off', logLevel: 'INFO', notificationMode: 'message', network: 'bridge', outputDir: join(base, out), enableCaching: true },
        env,
      );
      return executePlan(plan, await resolveDataset(plan.target, { env }), {
        engine,
        hostEnv: env,
        progress: { start() {}, done() {}, stop() {}, log() {} },
        runScenario: (o: ScenarioRunOptions) => {
          containers++;
          return runScenario({ ...o, labels: { ...o.labels, 'gaia2.test': 'rcache-e2e' } });
        },
      });
    };
    const first = await once('a');
    expect(first.results[0]!.status).toBe('pass');
    expect(containers).toBe(1);
    const second = await once('b');
    expect(containers).toBe(1);
    expect(second.results[0]).toMatchObject({ status: 'pass', reused_from_cache: { original_started_at: first.results[0]!.started_at } });
    expect(second.report.reused_from_cache).toBe(1);
    const events = (d: string) => readFileSync(join(base, d, 'exec_shopping_bottle_order', 'events.jsonl'), 'utf8');
    expect(events('b')).toBe(events('a'));
    expect(events('a').length).toBeGreaterThan(0);
  }, 240_000);
});
