import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync, lstatSync, readlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { agentCacheRoot, layerFiles, layerTag, writeLayerContext } from '../../../runner/src/image/agent-layer.js';
import { projectRoot } from '../../../runner/src/image/project-root.js';
import { fixtureAdapter } from '../agents/fixture-adapter.js';

const dir = mkdtempSync(join(tmpdir(), 'agent-layer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('layerTag', () => {
  it("derives the layer's tag from the world image's", () => {
    expect(layerTag('localhost/gaia2-agent:latest', 'claude-code', '2.1.332')).toBe('localhost/gaia2-agent-claude-code:2.1.332');
    expect(layerTag('localhost/gaia2-agent:dev', 'codex', '0.169.0-linux-x64')).toBe('localhost/gaia2-agent-codex:0.169.0-linux-x64-dev');
    expect(layerTag('localhost:5000/lab/world', 'acme', '1.0.0')).toBe('localhost:5000/lab/world-acme:1.0.0');
  });
});

describe('agentCacheRoot', () => {
  afterEach(() => vi.unstubAllEnvs());
  const o = { projectRoot: '/src/gaia2-runner', worldTag: 'w', adapter: fixtureAdapter(), version: '1.0.0' };

  it("is the project's .cache, GAIA2_AGENT_CACHE when set (shared by checkouts), an explicit cacheDir over both", () => {
    vi.stubEnv('GAIA2_AGENT_CACHE', '');
    expect(agentCacheRoot(o)).toBe('/src/gaia2-runner/.cache');
    vi.stubEnv('GAIA2_AGENT_CACHE', '/var/cache/gaia2');
    expect(agentCacheRoot(o)).toBe('/var/cache/gaia2');
    expect(agentCacheRoot({ ...o, cacheDir: '/tmp/c' })).toBe('/tmp/c');
  });
});

describe('writeLayerContext', () => {
  it('puts the Dockerfile, the package tree (links kept), the launcher (executable) and the files in place', async () => {
    const tree = join(dir, 'tree');
    mkdirSync(join(tree, 'node_modules/.bin'), { recursive: true });
    mkdirSync(join(tree, 'node_modules/acme'), { recursive: true });
    writeFileSync(join(tree, 'node_modules/acme/cli.js'), 'x');
    symlinkSync('../acme/cli.js', join(tree, 'node_modules/.bin/acme'));
    const ctx = join(dir, 'ctx');
    await writeLayerContext(ctx, await layerFiles(projectRoot(), fixtureAdapter()), tree, 'FROM x\n');
    expect(readFileSync(join(ctx, 'Dockerfile'), 'utf8')).toBe('FROM x\n');
    expect(readFileSync(join(ctx, 'layer/bin/agent'), 'utf8')).toContain('acme.sh');
    expect(statSync(join(ctx, 'layer/bin/agent')).mode & 0o777).toBe(0o755);
    expect(readFileSync(join(ctx, 'layer/etc/acme.json'), 'utf8')).toContain('telemetry');
    expect(lstatSync(join(ctx, 'layer/pkg/node_modules/.bin/acme')).isSymbolicLink()).toBe(true);
    // the kit, from runner/src/agents/kit/, in every layer
    expect(readFileSync(join(ctx, 'layer/lib/serve-kit.mjs'), 'utf8')).toContain('export function serve');
    expect(statSync(join(ctx, 'layer/lib/gaia2-kit.mjs')).mode & 0o777).toBe(0o644);
    expect(readlinkSync(join(ctx, 'layer/pkg/node_modules/.bin/acme'))).toBe('../acme/cli.js');
  });

  it('refuses a file outside /opt/gaia2-agent', async () => {
    await expect(layerFiles(projectRoot(), fixtureAdapter({ files: { '../etc/passwd': 'x' } }))).rejects.toThrow(/must stay inside \/opt\/gaia2-agent/);
  });
});
