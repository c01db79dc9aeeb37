// The write side of the Hub double, on the wire protocol @huggingface/hub's createRepo and
// commit use: POST /api/repos/create; POST /api/<type>s/<repo>/preupload/<rev> (the Hub
// answers which files go through LFS: here parquet files and anything over 10 MB, as the Hub
// does for binary data); POST /<type>s/<repo>.git/info/lfs/objects/batch (basic transfer:
// one upload URL per object not stored yet); PUT <upload URL> (content checked against its
// sha256 oid); POST /api/<type>s/<repo>/commit/<rev> (NDJSON: header, file with base64
// content, lfsFile by oid, deletedFile). Committed files land in the same store the read
// routes serve.
import { createHash, createHmac } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface HubRepo {
  private: boolean;
  type: string;
}

export interface HubCommit {
  repo: string;
  revision: string;
  summary: string;
  /** Paths written by the commit, and how each came (inline or LFS). */
  files: Array<{ path: string; via: 'inline' | 'lfs' }>;
}

export interface CommitStore {
  /** repo@rev → path → bytes (shared with the read routes). */
  files: Map<string, Map<string, Buffer>>;
  repos: Map<string, HubRepo>;
  commits: HubCommit[];
  lfs: Map<string, Buffer>;
  url: () => string;
}

const LFS_THRESHOLD = 10 * 1024 * 1024;
const SIGNING_KEY = 'fake-hub-presign';
const sign = (oid: string): string => createHmac('sha256', SIGNING_KEY).update(oid).digest('hex');

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function json(res: ServerResponse, status: number, body: unknown, type = 'application/json'): void {
  res.writeHead(status, { 'content-type': type });
  res.end(JSON.stringify(body));
}

/** Handles a write route; false when the request is not one. */
export function handleCommitApi(req: IncomingMessage, res: ServerResponse, u: URL, store: CommitStore): boolean {
  const route = matchRoute(req.method ?? 'GET', u.pathname);
  if (!route) return false;
  // LFS upload URLs are presigned (the storage never sees the Hub token); the rest needs it.
  const presigned = u.pathname.startsWith('/lfs-upload/');
  if (presigned ? u.searchParams.get('sig') !== sign(u.pathname.slice('/lfs-upload/'.length)) : !/^Bearer \S+/.test(req.headers.authorization ?? '')) {
    json(res, 401, { error: 'Invalid credentials in Authorization header' });
    return true;
  }
  void readBody(req)
    .then((body) => route(body, res, store))
    .catch((e: Error) => json(res, 500, { error: e.message }));
  return true;
}

type Route = (body: Buffer, res: ServerResponse, store: CommitStore) => void;

function matchRoute(method: string, path: string): Route | null {
  if (method === 'POST' && path === '/api/repos/create') return createRepoRoute;
  let m = /^\/api\/(dataset|model|space)s\/([^/]+\/[^/]+)\/preupload\/([^/]+)$/.exec(path);
  if (method === 'POST' && m) return (b, r, s) => preupload(m![2]!, b, r, s);
  m = /^\/(datasets\/|spaces\/|)([^/]+\/[^/]+)\.git\/info\/lfs\/objects\/batch$/.exec(path);
  if (method === 'POST' && m) return (b, r, s) => lfsBatch(m![2]!, b, r, s);
  m = /^\/lfs-upload\/([0-9a-f]{64})$/.exec(path);
  if (method === 'PUT' && m) return (b, r, s) => lfsPut(m![1]!, b, r, s);
  m = /^\/api\/(dataset|model|space)s\/([^/]+\/[^/]+)\/commit\/([^/]+)$/.exec(path);
  if (method === 'POST' && m) return (b, r, s) => commitRoute(m![2]!, decodeURIComponent(m![3]!), b, r, s);
  return null;
}

function createRepoRoute(body: Buffer, res: ServerResponse, s: CommitStore): void {
  const p = JSON.parse(body.toString('utf8')) as { name?: string; organization?: string; type?: string; visibility?: string; private?: boolean };
  if (!p.name || !p.organization) return json(res, 400, { error: 'name and organization are required' });
  const repo = `${p.organization}/${p.name}`;
  if (s.repos.has(repo)) return json(res, 409, { error: `You already created this ${p.type ?? 'model'} repo`, url: `${s.url()}/datasets/${repo}` });
  s.repos.set(repo, { private: p.visibility ? p.visibility === 'private' : !!p.private, type: p.type ?? 'model' });
  if (!s.files.has(`${repo}@main`)) s.files.set(`${repo}@main`, new Map());
  json(res, 200, { url: `${s.url()}/datasets/${repo}`, name: repo });
}

function preupload(repo: string, body: Buffer, res: ServerResponse, s: CommitStore): void {
  if (!s.repos.has(repo)) return json(res, 404, { error: `Repository ${repo} not found` });
  const p = JSON.parse(body.toString('utf8')) as { files: Array<{ path: string; size: number; sample: string }> };
  json(res, 200, {
    files: p.files.map((f) => ({ path: f.path, uploadMode: f.path.endsWith('.parquet') || f.size > LFS_THRESHOLD ? 'lfs' : 'regular', shouldIgnore: false })),
  });
}

function lfsBatch(repo: string, body: Buffer, res: ServerResponse, s: CommitStore): void {
  if (!s.repos.has(repo)) return json(res, 404, { message: 'Repository not found' }, 'application/vnd.git-lfs+json');
  const p = JSON.parse(body.toString('utf8')) as { operation: string; objects: Array<{ oid: string; size: number }> };
  if (p.operation !== 'upload') return json(res, 422, { message: 'only upload is supported' }, 'application/vnd.git-lfs+json');
  json(
    res,
    200,
    {
      transfer: 'basic',
      objects: p.objects.map((o) => ({
        oid: o.oid,
        size: o.size,
        authenticated: true,
        // An object the store has already needs no upload: no actions (LFS batch semantics).
        ...(s.lfs.has(o.oid) ? {} : { actions: { upload: { href: `${s.url()}/lfs-upload/${o.oid}?sig=${sign(o.oid)}`, expires_in: 3600 } } }),
      })),
    },
    'application/vnd.git-lfs+json',
  );
}

function lfsPut(oid: string, body: Buffer, res: ServerResponse, s: CommitStore): void {
  const actual = createHash('sha256').update(body).digest('hex');
  if (actual !== oid) return json(res, 422, { error: `content sha256 ${actual} does not match oid ${oid}` });
  s.lfs.set(oid, body);
  res.writeHead(200).end();
}

type CommitLine =
  | { key: 'header'; value: { summary: string; description?: string } }
  | { key: 'file'; value: { path: string; content: string; encoding: 'base64' } }
  | { key: 'lfsFile'; value: { path: string; algo: string; oid: string; size: number } }
  | { key: 'deletedFile'; value: { path: string } };

function commitRoute(repo: string, revision: string, body: Buffer, res: ServerResponse, s: CommitStore): void {
  if (!s.repos.has(repo)) return json(res, 404, { error: `Repository ${repo} not found` });
  const lines = body.toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as CommitLine);
  const header = lines[0];
  if (header?.key !== 'header' || !header.value.summary) return json(res, 400, { error: 'the first line must be the header with a summary' });
  const staged = new Map<string, Buffer | null>();
  const files: HubCommit['files'] = [];
  for (const l of lines.slice(1)) {
    if (l.key === 'file') {
      if (l.value.encoding !== 'base64') return json(res, 400, { error: `unsupported encoding ${l.value.encoding}` });
      staged.set(l.value.path, Buffer.from(l.value.content, 'base64'));
      files.push({ path: l.value.path, via: 'inline' });
    } else if (l.key === 'lfsFile') {
      const blob = s.lfs.get(l.value.oid);
      if (!blob || blob.length !== l.value.size) return json(res, 422, { error: `LFS object ${l.value.oid} of ${l.value.path} was not uploaded` });
      staged.set(l.value.path, blob);
      files.push({ path: l.value.path, via: 'lfs' });
    } else if (l.key === 'deletedFile') staged.set(l.value.path, null);
    else return json(res, 400, { error: `unknown commit line ${(l as { key: string }).key}` });
  }
  const key = `${repo}@${revision}`;
  if (!s.files.has(key)) s.files.set(key, new Map());
  const tree = s.files.get(key)!;
  for (const [p, b] of staged) if (b === null) tree.delete(p); else tree.set(p, b);
  s.commits.push({ repo, revision, summary: header.value.summary, files });
  const oid = createHash('sha1').update(body).digest('hex');
  json(res, 200, { success: true, commitOid: oid, commitUrl: `${s.url()}/datasets/${repo}/commit/${oid}` });
}
