// An agent's npm package, fetched on the host with the ordinary npm client (the user's npm
// configuration, registry and proxy apply) and cached under .cache/agents/, so an agent layer
// builds with no registry inside the engine. Like the image's Node runtime (node-runtime.ts).
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { promisify } from 'node:util';
import { createGunzip } from 'node:zlib';
import { extract } from 'tar-stream';
import { EXACT_VERSION, packageSpec, type AgentPackage } from '../agents/index.js';

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

/** Fetches in flight in this process, by cache directory: callers at once (one layer built on
 * two engines together) share one fetch instead of racing in one work directory. */
const inFlight = new Map<string, Promise<string>>();

/**
 * The directory to copy as /opt/gaia2-agent/pkg: the package's files ("pack") or a prefix
 * holding node_modules ("install"). Fetched once per version; a half-done fetch is redone.
 */
export async function ensureAgentPackage(pkg: AgentPackage, version: string, o: FetchOptions): Promise<string> {
  if (!EXACT_VERSION.test(version)) throw new Error(`agent package version "${version}" of ${pkg.name} is not an exact version (e.g. 1.2.3)`);
  const dir = packageCacheDir(o.cacheDir, pkg, version);
  if (existsSync(join(dir, 'complete'))) return join(dir, 'tree');
  let fetching = inFlight.get(dir);
  if (!fetching) {
    fetching = fetchPackage(pkg, version, dir, o).finally(() => inFlight.delete(dir));
    inFlight.set(dir, fetching);
  }
  return fetching;
}

async function fetchPackage(pkg: AgentPackage, version: string, dir: string, o: FetchOptions): Promise<string> {
  const tree = join(dir, 'tree');
  const spec = packageSpec(pkg, version);
  const log = o.log ?? (() => {});
  const work = join(dir, `work-${process.pid}-${randomBytes(4).toString('hex')}`);
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  const npm = (args: string[]) => run('npm', args, { cwd: work, env: o.env ?? process.env, maxBuffer: 16 << 20 }).catch((e: Error & { stderr?: string }) => {
    throw new Error(`npm ${args[0]} ${spec} failed: ${(e.stderr || e.message).trim().split('\n').slice(-3).join(' ')}`);
  });
  try {
    if (pkg.install === 'pack') {
      log(`fetching ${spec} with npm pack (once; cached in ${dir})`);
      await npm(['pack', spec, '--pack-destination', work, '--silent']);
      const tgz = (await readdir(work)).find((f) => f.endsWith('.tgz'));
      if (!tgz) throw new Error(`npm pack ${spec} produced no archive`);
      await unpackPackage(join(work, tgz), join(work, 'tree'));
    } else {
      log(`fetching ${spec} and its dependencies with npm install (once; cached in ${dir})`);
      const prefix = join(work, 'tree');
      await mkdir(prefix, { recursive: true });
      await writeFile(join(prefix, 'package.json'), '{"private":true}\n');
      await npm(['install', spec, '--prefix', prefix, '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--no-save', '--no-package-lock']);
      if (!existsSync(join(prefix, 'node_modules', pkg.name, 'package.json'))) throw new Error(`npm install ${spec} did not install ${pkg.name}`);
    }
    await rm(tree, { recursive: true, force: true });
    await rename(join(work, 'tree'), tree);
    await writeFile(join(dir, 'complete'), `${spec}\n`);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return tree;
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
