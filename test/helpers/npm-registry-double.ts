// A local npm registry speaking the registry's read protocol (packument documents and tarball
// downloads, with sha512 integrity), so the ordinary npm client can `npm pack` and
// `npm install` agent packages in hermetic tests. Packages are made from in-memory files.
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { pack } from 'tar-stream';
import { listenOutsideEphemeral } from './listen-port.js';

export interface DoublePackage {
  name: string;
  version: string;
  /** path inside package/ → content; executable when the path is listed in `bin` or ends with .sh */
  files: Record<string, string>;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  bin?: Record<string, string>;
  /** package.json engines, e.g. {node: ">=24"} (npm leaves out an optional dependency its Node does not satisfy). */
  engines?: Record<string, string>;
  scripts?: Record<string, string>;
}

export interface NpmRegistryDouble {
  url: string;
  /** Packument and tarball requests seen, in order (e.g. "GET /@scope%2fname"). */
  requests: string[];
  close(): Promise<void>;
}

const extraFields = (p: DoublePackage) => ({
  ...(p.bin ? { bin: p.bin } : {}),
  ...(p.engines ? { engines: p.engines } : {}),
  ...(p.optionalDependencies ? { optionalDependencies: p.optionalDependencies } : {}),
  ...(p.scripts ? { scripts: p.scripts } : {}),
});

async function tarball(p: DoublePackage): Promise<Buffer> {
  const t = pack();
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    t.on('data', (c: unknown) => chunks.push(c as Buffer));
    t.on('end', () => resolve(gzipSync(Buffer.concat(chunks))));
    t.on('error', reject);
  });
  const manifest = { name: p.name, version: p.version, dependencies: p.dependencies ?? {}, ...extraFields(p) };
  t.entry({ name: 'package/package.json', mode: 0o644 }, JSON.stringify(manifest, null, 2));
  const execs = new Set(Object.values(p.bin ?? {}).map((b) => b.replace(/^\.\//, '')));
  for (const [path, content] of Object.entries(p.files)) {
    t.entry({ name: `package/${path}`, mode: execs.has(path) || path.endsWith('.sh') ? 0o755 : 0o644 }, content);
  }
  t.finalize();
  return done;
}

export async function startNpmRegistryDouble(packages: DoublePackage[]): Promise<NpmRegistryDouble> {
  const tarballs = new Map<string, Buffer>();
  const docs = new Map<string, Record<string, unknown>>();
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]!);
    const tgz = tarballs.get(path);
    if (tgz) {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': tgz.length });
      res.end(tgz);
      return;
    }
    const doc = docs.get(path.slice(1));
    if (!doc) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":"Not found"}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(doc));
  });
  await listenOutsideEphemeral(server, '127.0.0.1');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  for (const p of packages) {
    const bytes = await tarball(p);
    const file = `/${p.name}/-/${p.name.split('/').pop()}-${p.version}.tgz`;
    tarballs.set(file, bytes);
    const doc = docs.get(p.name) ?? { name: p.name, 'dist-tags': {}, versions: {} };
    (doc['dist-tags'] as Record<string, string>).latest = p.version;
    (doc.versions as Record<string, unknown>)[p.version] = {
      name: p.name,
      version: p.version,
      dependencies: p.dependencies ?? {},
      ...extraFields(p),
      dist: {
        tarball: `${url}${file}`,
        shasum: createHash('sha1').update(bytes).digest('hex'),
        integrity: `sha512-${createHash('sha512').update(bytes).digest('base64')}`,
      },
    };
    docs.set(p.name, doc);
  }
  return { url, requests, close: () => new Promise((r) => server.close(() => r())) };
}

/** npm client settings that use only the double and a private cache. */
export function npmEnvFor(registry: string, cacheDir: string): NodeJS.ProcessEnv {
  return { ...process.env, npm_config_registry: `${registry}/`, npm_config_cache: cacheDir, npm_config_update_notifier: 'false', npm_config_audit: 'false', npm_config_fund: 'false' };
}
