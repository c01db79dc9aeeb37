// The CLI as it ships (dist/runner/cli.mjs, bundled by scripts/build.mjs) against the real
// engine: an oracle run passes, and the engine library's optional parts — gRPC/protobuf for
// BuildKit sessions, ssh2 for ssh:// engines, ~15 MB of memory — are never loaded (the build
// bundles dockerode and docker-modem with those modules loaded on first call).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_IMAGE } from '../../runner/src/image/index.js';
import { bundleViewerClient } from '../../runner/src/viewer/pages/client-bundle.mjs';
import { writeRun } from '../runner/viewer/synthetic.js';

const root = join(import.meta.dirname, '..', '..');
const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
const work = mkdtempSync(join(tmpdir(), 'gaia2-bundled-cli-'));

beforeAll(() => {
  execFileSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'ignore' });
}, 120_000);

describe('the bundled CLI', () => {
  it('runs an oracle scenario through the engine without loading gRPC, protobuf or ssh2', () => {
    const data = join(work, 'data');
    mkdirSync(data);
    writeFileSync(join(data, 'bottle.json'), readFileSync(join(root, 'examples/scenarios/execution/exec_shopping_bottle_order.json')));
    // Writes the package of every CommonJS module the process loaded, at exit.
    const probe = join(work, 'loaded-packages.mjs');
    const list = join(work, 'loaded.json');
    writeFileSync(
      probe,
      `import { createRequire } from 'node:module'; import { writeFileSync } from 'node:fs';
const M = createRequire(import.meta.url)('node:module');
process.on('exit', () => writeFileSync(${JSON.stringify(list)}, JSON.stringify([...new Set(Object.keys(M._cache)
  .map((k) => /node_modules\\/((?:@[^/]+\\/)?[^/]+)/.exec(k)?.[1]).filter(Boolean))])));`,
    );
    const out = join(work, 'out');
    const r = spawnSync(
      process.execPath,
      ['--import', probe, join(root, 'dist/runner/cli.mjs'), 'run-dataset', '-d', data, '--agent', 'oracle', '-i', image, '--output-dir', out],
      { encoding: 'utf8', timeout: 120_000 },
    );
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(out, 'exec_shopping_bottle_order', 'result.json'), 'utf8')).status).toBe('pass');
    const loaded = JSON.parse(readFileSync(list, 'utf8')) as string[];
    expect(loaded).toContain('tar-stream'); // the probe sees the engine's own dependencies
    for (const optional of ['@grpc/grpc-js', '@grpc/proto-loader', 'protobufjs', 'ssh2']) expect(loaded).not.toContain(optional);
  }, 180_000);

  it("writes the viewer's browser code as the build bundled it, loading no bundler", async () => {
    const probe = join(work, 'loaded-files.mjs');
    const list = join(work, 'loaded-files.json');
    writeFileSync(probe, `import { writeFileSync } from 'node:fs'; import { createRequire } from 'node:module';
const M = createRequire(import.meta.url)('node:module');
process.on('exit', () => writeFileSync(${JSON.stringify(list)}, JSON.stringify(Object.keys(M._cache))));`);
    /** The files of the esbuild package that a node process with these arguments loaded. */
    const esbuildLoadedBy = (args: string[]): string[] => {
      rmSync(list, { force: true });
      const r = spawnSync(process.execPath, ['--import', probe, ...args], { encoding: 'utf8', timeout: 60_000 });
      expect(r.status, r.stderr).toBe(0);
      return (JSON.parse(readFileSync(list, 'utf8')) as string[]).filter((f) => f.includes('/node_modules/esbuild/'));
    };
    // The probe sees esbuild when the viewer's bundler runs (the way a CLI that bundled at start would load it).
    const bundler = pathToFileURL(join(root, 'runner/src/viewer/pages/client-bundle.mjs')).href;
    expect(esbuildLoadedBy(['--input-type=module', '-e', `await (await import(${JSON.stringify(bundler)})).bundleViewerClient()`])).not.toEqual([]);
    const run = join(work, 'view');
    writeRun(run, [{ id: 'search/sc_1', split: 'search', status: 'pass' }]);
    expect(esbuildLoadedBy([join(root, 'dist/runner/cli.mjs'), 'view', '--output-dir', run])).toEqual([]);
    expect(readFileSync(join(run, '_viewer.js'), 'utf8')).toBe(await bundleViewerClient());
  }, 120_000);
});
