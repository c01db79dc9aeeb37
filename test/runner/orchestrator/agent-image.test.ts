import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { startNpmRegistryDouble } from '../../helpers/npm-registry-double.js';
import { prepareAgentImage } from '../../../runner/src/orchestrator/agent-image.js';
import type { RunPlan } from '../../../runner/src/plan/plan.js';
import { RUN_DEFAULTS } from '../../../runner/src/plan/plan.js';
import { fakeEngine } from './fakes.js';

const plan = (name: string, image: string): RunPlan => ({
  command: 'run-dataset',
  configPath: null,
  target: { kind: 'local', path: '/d', recursive: true, splits: null, subset: null, limit: null },
  agent: { name, image, runtime: 'podman', provider: null, model: null, apiKey: null, baseUrl: null, thinking: 'low', tools: 'shell', maxTokens: null, volumes: [], script: null },
  judge: null,
  run: { ...RUN_DEFAULTS },
});

/** An engine that holds images with these labels (an image store, like a local one). */
function engineWith(images: Record<string, Record<string, string>>) {
  const e = fakeEngine();
  e.images.labels = async (ref: string) => images[ref] ?? null;
  return e;
}

describe('prepareAgentImage', () => {
  it('our runtimes play in the world image and are recorded with the runner version', async () => {
    const p = plan('oracle', 'localhost/gaia2-agent:latest');
    const r = await prepareAgentImage(p, engineWith({}), () => {});
    expect(r.plan).toBe(p);
    expect(r.agent.name).toBe('oracle');
    expect(r.agent.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("external: name and version come from the image's labels", async () => {
    const e = engineWith({ 'localhost/my-agent:1': { 'gaia2.agent.name': 'my-agent', 'gaia2.agent.version': '0.3.1' } });
    const r = await prepareAgentImage(plan('external', 'localhost/my-agent:1'), e, () => {});
    expect(r.agent).toEqual({ name: 'my-agent', version: '0.3.1' });
    expect(r.plan.agent.image).toBe('localhost/my-agent:1');
  });

  it('external: a missing image or one without the agent labels is refused, saying what to do', async () => {
    const e = engineWith({ 'localhost/gaia2-agent:latest': { 'gaia2.context-hash': 'abc' } });
    await expect(prepareAgentImage(plan('external', 'localhost/nothing:1'), e, () => {})).rejects.toThrow(/image localhost\/nothing:1 was not found \(build your agent layer first/);
    await expect(prepareAgentImage(plan('external', 'localhost/gaia2-agent:latest'), e, () => {})).rejects.toThrow(/has no gaia2\.agent\.name label, so it is not an agent layer/);
  });

  it('external on a backend without local images records what was asked', async () => {
    const r = await prepareAgentImage(plan('external', 'registry.example/my-agent:1'), { ...fakeEngine(), images: null }, () => {});
    expect(r.agent).toEqual({ name: 'external', version: null });
  });

  it("a third-party agent is never built on a reference image's name (its layer would replace or pose as the reference's image)", async () => {
    const e = engineWith({});
    let built = false;
    e.images.build = async () => void (built = true);
    await expect(prepareAgentImage(plan('claude-code', 'localhost/gaia2-oc:latest'), e, () => {})).rejects.toThrow(
      /--agent claude-code runs on this runner's world image, but --image localhost\/gaia2-oc:latest names the reference's OpenClaw image: use --image localhost\/gaia2-agent:latest/,
    );
    expect(built).toBe(false);
  });

  it('--agent-version latest: settled on the npm registry before anything else; the plan, the layer tag and the record get the exact version', async () => {
    const reg = await startNpmRegistryDouble([{ name: 'openclaw', version: '2026.99.1', files: { 'a.txt': 'a' } }]);
    vi.stubEnv('npm_config_registry', `${reg.url}/`);
    vi.stubEnv('npm_config_cache', mkdtempSync(join(tmpdir(), 'npm-cache-')));
    try {
      const p = plan('openclaw', 'localhost/gaia2-agent:latest');
      const lines: string[] = [];
      // a backend without an image store (a cluster) runs the layer pushed under its tag: no build here
      const r = await prepareAgentImage({ ...p, agent: { ...p.agent, version: 'latest' } }, { ...fakeEngine(), images: null }, (l) => lines.push(l));
      expect(r.agent).toEqual({ name: 'openclaw', version: '2026.99.1' });
      expect(r.plan.agent.version).toBe('2026.99.1');
      expect(r.plan.agent.image).toBe('localhost/gaia2-agent-openclaw:2026.99.1');
      expect(lines.join('\n')).toMatch(/openclaw: --agent-version latest is openclaw@2026\.99\.1/);
    } finally {
      vi.unstubAllEnvs();
      await reg.close();
    }
  });
});
