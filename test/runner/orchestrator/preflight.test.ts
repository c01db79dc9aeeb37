// The run's preflight (orchestrator/preflight.ts): the backend's refusal of what the run asks of
// it comes before anything slow — a third-party agent's layer (minutes of npm and image build)
// is not built for a run the backend refuses.
import { describe, expect, it } from 'vitest';
import { preflightRun } from '../../../runner/src/orchestrator/preflight.js';
import type { RunPlan } from '../../../runner/src/plan/plan.js';
import { RUN_DEFAULTS } from '../../../runner/src/plan/plan.js';
import { fakeEngine } from './fakes.js';

const plan = (network: 'host' | 'bridge'): RunPlan => ({
  command: 'run-dataset',
  configPath: null,
  target: { kind: 'local', path: '/d', recursive: true, splits: null, subset: null, limit: null },
  agent: { name: 'claude-code', image: 'localhost/gaia2-agent:latest', runtime: 'podman', provider: 'anthropic', model: 'm', apiKey: null, baseUrl: null, thinking: 'low', tools: 'shell', maxTokens: null, volumes: [], script: null },
  judge: null,
  run: { ...RUN_DEFAULTS, network },
});

describe('preflightRun', () => {
  it("a backend that refuses the run's network refuses it before the agent's layer is looked at or built", async () => {
    const e = fakeEngine();
    // the double's own preflight reads these: a backend whose units cannot share this machine's network
    (e as { capabilities: typeof e.capabilities }).capabilities = { ...e.capabilities, hostNetwork: false };
    const touched: string[] = [];
    e.images.build = async () => void touched.push('build');
    e.images.labels = async (ref: string) => (touched.push(`labels ${ref}`), null);
    e.images.id = async (ref: string) => (touched.push(`id ${ref}`), null);
    await expect(preflightRun(plan('host'), e, {}, () => {})).rejects.toThrow(/network = "host" \(--network host\) is not possible on the fake backend/);
    expect(touched).toEqual([]);
  });
});
