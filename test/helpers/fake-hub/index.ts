// A local Hugging Face Hub double on 127.0.0.1 speaking the wire protocol that
// @huggingface/hub uses: GET /api/datasets/<repo>/tree/<rev>/<path>?recursive= (JSON list)
// and GET /datasets/<repo>/resolve/<rev>/<path> (bytes, with Range support); the write side
// (create repo, preupload, LFS batch and upload, commit) is in commit-api.ts.
import { createServer, type Server } from 'node:http';
import { createHash } from 'node:crypto';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { handleCommitApi, type CommitStore, type HubCommit, type HubRepo } from './commit-api.js';
import { listenOutsideEphemeral } from '../listen-port.js';

export type { HubCommit, HubRepo } from './commit-api.js';

export interface FakeHub {
  url: string;
  /** Request paths received, in order. */
  requests: string[];
  /** Authorization headers received. */
  authHeaders: string[];
  setFile(repo: string, path: string, content: Uint8Array | string, revision?: string): void;
  /** A file as the Hub holds it now (uploaded or set), or undefined. */
  getFile(repo: string, path: string, revision?: string): Buffer | undefined;
  /** Repos created through the API, with their visibility. */
  repos: Map<string, HubRepo>;
  commits: HubCommit[];
  stop(): Promise<void>;
}

/** A parquet file with columns scenario_id and scenario (the gaia2-cli layout). */
export function scenarioParquet(rows: Array<{ scenario_id: unknown; scenario: unknown }>): Uint8Array {
  const buf = parquetWriteBuffer({
    columnData: [
      { name: 'scenario_id', data: rows.map((r) => r.scenario_id) as string[], type: 'STRING' },
      { name: 'scenario', data: rows.map((r) => r.scenario) as string[], type: 'STRING' },
    ],
  });
  return new Uint8Array(buf);
}

/** A commit id for the repo's current content: changes whenever a file does. */
function shaOf(repo: Map<string, Buffer>): string {
  const h = createHash('sha1');
  for (const [p, b] of [...repo].sort(([a], [b2]) => (a < b2 ? -1 : 1))) h.update(p).update(b);
  return h.digest('hex');
}

export async function startFakeHub(): Promise<FakeHub> {
  // repo@rev → path → bytes
  const files = new Map<string, Map<string, Buffer>>();
  const requests: string[] = [];
  const authHeaders: string[] = [];
  let base = '';
  const store: CommitStore = { files, repos: new Map(), commits: [], lfs: new Map(), url: () => base };
  const server: Server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    requests.push(u.pathname);
    if (req.headers.authorization) authHeaders.push(req.headers.authorization);
    if (handleCommitApi(req, res, u, store)) return;
    const notFound = (msg: string) => {
      res.writeHead(404, { 'content-type': 'application/json', 'x-error-code': 'EntryNotFound' });
      res.end(JSON.stringify({ error: msg }));
    };
    let m = /^\/api\/datasets\/([^/]+\/[^/]+)\/tree\/([^/]+)(?:\/(.*))?$/.exec(u.pathname);
    if (m) {
      const repo = files.get(`${m[1]}@${decodeURIComponent(m[2]!)}`);
      const dir = m[3] ? decodeURIComponent(m[3]).replace(/\/$/, '') : '';
      if (!repo) return notFound(`Repository ${m[1]} not found`);
      const recursive = u.searchParams.get('recursive') === 'true';
      const entries: unknown[] = [];
      const dirs = new Set<string>();
      for (const [p, b] of repo) {
        if (dir && !p.startsWith(dir + '/')) continue;
        const rest = dir ? p.slice(dir.length + 1) : p;
        if (!recursive && rest.includes('/')) {
          dirs.add((dir ? dir + '/' : '') + rest.split('/')[0]);
          continue;
        }
        entries.push({ type: 'file', path: p, size: b.length, oid: createHash('sha1').update(b).digest('hex') });
      }
      for (const d of dirs) entries.push({ type: 'directory', path: d, size: 0, oid: 'd' });
      if (entries.length === 0) return notFound(`path ${dir} not found`);
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify(entries));
    }
    m = /^\/api\/datasets\/([^/]+\/[^/]+)\/revision\/([^/]+)$/.exec(u.pathname);
    if (m) {
      // Dataset info at a revision, as the Hub answers it: the commit is `sha`.
      const repo = files.get(`${m[1]}@${decodeURIComponent(m[2]!)}`);
      if (!repo) return notFound(`Revision not found`);
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ _id: createHash('sha1').update(m[1]!).digest('hex').slice(0, 24), id: m[1], private: false, gated: false, downloads: 0, likes: 0, lastModified: new Date(0).toISOString(), sha: shaOf(repo) }));
    }
    m = /^\/datasets\/([^/]+\/[^/]+)\/resolve\/([^/]+)\/(.+)$/.exec(u.pathname);
    if (m) {
      const body = files.get(`${m[1]}@${decodeURIComponent(m[2]!)}`)?.get(decodeURIComponent(m[3]!));
      if (!body) return notFound('file not found');
      const etag = `"${createHash('sha1').update(body).digest('hex')}"`;
      const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
      if (range) {
        const start = Number(range[1]);
        const end = range[2] ? Math.min(Number(range[2]), body.length - 1) : body.length - 1;
        res.writeHead(206, { 'content-type': 'application/octet-stream', 'content-range': `bytes ${start}-${end}/${body.length}`, 'accept-ranges': 'bytes', 'content-length': end - start + 1, etag });
        return res.end(body.subarray(start, end + 1));
      }
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length, 'accept-ranges': 'bytes', etag });
      return res.end(body);
    }
    notFound('no such route');
  });
  await listenOutsideEphemeral(server, '127.0.0.1');
  const port = (server.address() as { port: number }).port;
  base = `http://127.0.0.1:${port}`;
  return {
    url: base,
    requests,
    authHeaders,
    repos: store.repos,
    commits: store.commits,
    getFile: (repo, path, revision = 'main') => files.get(`${repo}@${revision}`)?.get(path),
    setFile(repo, path, content, revision = 'main') {
      const key = `${repo}@${revision}`;
      if (!files.has(key)) files.set(key, new Map());
      files.get(key)!.set(path, Buffer.from(content));
    },
    stop: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}
