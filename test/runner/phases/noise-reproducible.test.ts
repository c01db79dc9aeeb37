// Two gaia2-run invocations with the same flags give their noise phases the same settings, and
// the world daemon turns those settings into a byte-identical noise.jsonl plan; another seed
// gives another plan. (Inside one run, every run_N gets the same plan: test/e2e/gaia2-run-llm.)
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { noiseFromEnv } from '@gaia2/contract/noise';
import { applyNoise } from '../../../agent-image/src/noise/index.js';
import type { DatasetFlags } from '../../../runner/src/config/cli-flags.js';
import { buildBaseEnv } from '../../../runner/src/env/index.js';
import { phasePlan, type PhaseSource } from '../../../runner/src/phases/phase-plans.js';

const root = join(import.meta.dirname, '..', '..', '..');
const scenario = JSON.parse(readFileSync(join(root, 'examples/scenarios/time/time_shopping_price_drop.json'), 'utf8'));

/** One gaia2-run's noise phase, from its flags to the noise.jsonl the daemon writes. */
function noisePlanText(extra: Partial<DatasetFlags>): { env: string; plan: string } {
  const flags = { dataset: join(root, 'examples/scenarios'), agent: 'oracle', image: 'localhost/gaia2-agent:test', runtime: 'podman', adapterPort: '8090', timeout: '60', healthTimeout: '60', activityTimeout: '60', thinking: 'off', logLevel: 'INFO', notificationMode: 'message', network: 'bridge', concurrency: '1', revision: 'main', passAt: '1', ...extra } as DatasetFlags;
  const src: PhaseSource = { kind: 'flags', flags, env: {} };
  const plan = phasePlan('noise', src, { root: mkdtempSync(join(tmpdir(), 'gaia2-noise-repro-')), runs: 3, miniSubset: null, retry: false });
  const env = buildBaseEnv(plan, {}).env;
  const file = join(mkdtempSync(join(tmpdir(), 'gaia2-noise-plan-')), 'noise.jsonl');
  applyNoise(structuredClone(scenario), noiseFromEnv(env)!, file);
  return { env: env.GAIA2_NOISE!, plan: readFileSync(file, 'utf8') };
}

describe('noise phase: reproducible per seed across gaia2-run invocations', () => {
  it('same flags → same GAIA2_NOISE and a byte-identical plan; another --noise-seed → another plan', () => {
    const a = noisePlanText({ noiseSeed: '11' });
    const b = noisePlanText({ noiseSeed: '11' });
    expect(JSON.parse(a.env)).toMatchObject({ tool_augmentation: { seed: 11 }, env_events: { env_events_seed: 11 } });
    expect(b.env).toBe(a.env);
    expect(a.plan.split('\n').filter((l) => l.includes('"env_event"')).length).toBeGreaterThan(0);
    expect(b.plan).toBe(a.plan);
    const c = noisePlanText({ noiseSeed: '12' });
    expect(c.plan).not.toBe(a.plan);
  });
});
