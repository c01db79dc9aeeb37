import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createReadStream } from 'node:fs';
import { extract } from 'tar-stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { agentCacheRoot, layerFiles, layerTag, LAYER_NODE_PATH, writeLayerContext } from '../../../runner/src/image/agent-layer.js';
import { packageTar } from '../../../runner/src/image/agent-package.js';
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

/** name → [type, mode, linkname or content] of every entry of a tar file. */
async function tarEntries(file: string): Promise<Map<string, [string, number, string]>> {
  const out = new Map<string, [string, number, string]>();
  const ex = extract();
  ex.on('entry', (h, body, next) => {
    const chunks: Buffer[] = [];
    body.on('data', (c: unknown) => chunks.push(c as Buffer));
    body.on('end', () => {
      out.set(h.name, [h.type ?? 'file', h.mode ?? 0, h.linkname ?? Buffer.concat(chunks).toString('utf8')]);
      next();
    });
  });
  await new Promise<void>((resolve, reject) => createReadStream(file).pipe(ex).on('finish', () => resolve()).on('error', reject));
  return out;
}

describe('writeLayerContext', () => {
  it('puts the Dockerfile, the package as one archive (links and modes kept), the Node it brings, the launcher (executable) and the files in place', async () => {
    const tree = join(dir, 'cache', 'tree');
    mkdirSync(join(tree, 'node_modules/.bin'), { recursive: true });
    mkdirSync(join(tree, 'node_modules/acme/empty'), { recursive: true });
    writeFileSync(join(tree, 'node_modules/acme/cli.js'), 'x', { mode: 0o755 });
    writeFileSync(join(tree, 'node_modules/acme/README.md'), 'r', { mode: 0o600 });
    symlinkSync('../acme/cli.js', join(tree, 'node_modules/.bin/acme'));
    const node = join(dir, 'node');
    writeFileSync(node, 'ELF', { mode: 0o644 });
    const tar = await packageTar(tree);
    expect(tar).toBe(join(dir, 'cache', 'tree.tar'));
    const ctx = join(dir, 'ctx');
    await writeLayerContext(ctx, await layerFiles(projectRoot(), fixtureAdapter()), { tar, node }, 'FROM x\n');
    expect(readFileSync(join(ctx, 'Dockerfile'), 'utf8')).toBe('FROM x\n');
    expect(readFileSync(join(ctx, 'layer/bin/agent'), 'utf8')).toContain('acme.sh');
    expect(statSync(join(ctx, 'layer/bin/agent')).mode & 0o777).toBe(0o755);
    expect(readFileSync(join(ctx, 'layer/etc/acme.json'), 'utf8')).toContain('telemetry');
    expect(readFileSync(join(ctx, 'layer', LAYER_NODE_PATH), 'utf8')).toBe('ELF');
    expect(statSync(join(ctx, 'layer', LAYER_NODE_PATH)).mode & 0o777).toBe(0o755);
    // the kit, from runner/src/agents/kit/, in every layer
    expect(readFileSync(join(ctx, 'layer/lib/serve-kit.mjs'), 'utf8')).toContain('export function serve');
    expect(statSync(join(ctx, 'layer/lib/gaia2-kit.mjs')).mode & 0o777).toBe(0o644);
    const entries = await tarEntries(join(ctx, 'pkg.tar'));
    expect(entries.get('node_modules/.bin/acme')).toEqual(['symlink', 0o777, '../acme/cli.js']);
    expect(entries.get('node_modules/acme/cli.js')).toEqual(['file', 0o755, 'x']);
    expect(entries.get('node_modules/acme/README.md')).toEqual(['file', 0o644, 'r']);
    expect(entries.get('node_modules/acme/empty/')?.[0]).toBe('directory');
  });

  it('refuses a file outside /opt/gaia2-agent', async () => {
    await expect(layerFiles(projectRoot(), fixtureAdapter({ files: { '../etc/passwd': 'x' } }))).rejects.toThrow(/must stay inside \/opt\/gaia2-agent/);
  });
});
