// The default "container" of the fake runtime: answers the adapter routes a runner uses, with
// the artifacts of a real oracle run (test/fixtures/k8s-double/oracle-run), so a scale bench
// exercises the runner's whole path (upload, status polling, artifact download, shutdown)
// against the double without a container per run.
//   GET /health     {ok, connected, backend:"fake", agent, status, buffer, sseClients}
//   POST /files     the scenario upload: starts the run (status running, then the recorded
//                   final status after `runMs`)
//   PUT /files      the streamed upload (files-stream): one raw file per request, the same start
//   GET /artifacts?format=tar  the recorded files as a tar stream (artifacts-tar)
//   GET /status     {"status":"waiting"} → {"status":"running",…} → the recorded status
//   GET /artifacts  the recorded files (token required, 403 without one, like the image)
//   POST /shutdown  {"ok":true}, then the container exits 0
import { readFileSync, readdirSync } from 'node:fs';
import type http from 'node:http';
import { join } from 'node:path';
import { ENV } from '@gaia2/contract/paths';
import { ADAPTER_TOKEN_HEADER, ARTIFACTS_TAR_HEADERS, ARTIFACTS_TAR_QUERY, FILE_PUT_QUERY, ROUTES } from '@gaia2/contract/routes';
import { packFiles } from '../../../../runner/src/engine/archive.js';
import type { Pod, Secret } from '../types.js';
import type { FakeAppFactory } from './fake.js';

const FIXTURE = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'k8s-double', 'oracle-run');
/** The upload route of the Kubernetes backend's image (POST /files). */
const FILES_ROUTE = '/files';

let recorded: Record<string, string> | undefined;
function recordedArtifacts(): Record<string, string> {
  recorded ??= Object.fromEntries(readdirSync(FIXTURE).filter((f) => f !== 'README.md')
    .map((f) => [f, readFileSync(join(FIXTURE, f)).toString('base64')]));
  return recorded;
}

/** The adapter token the image would read: a literal env value, or a key of a mounted Secret. */
function adapterToken(pod: Pod, secrets: Map<string, Secret>): string | undefined {
  const literal = pod.spec.containers[0]?.env?.find((e) => e.name === ENV.adapterToken)?.value;
  if (literal) return literal;
  for (const s of secrets.values()) {
    const b64 = s.data?.[ENV.adapterToken];
    if (b64) return Buffer.from(b64, 'base64').toString('utf8');
  }
  return undefined;
}

function json(res: http.ServerResponse, code: number, body: unknown): void {
  res.writeHead(code, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

export function fakeAdapter(o: { runMs?: number } = {}): FakeAppFactory {
  const runMs = o.runMs ?? Number(process.env.K8SD_FAKE_RUN_MS ?? 1000);
  return (pod, secrets) => {
    const token = adapterToken(pod, secrets);
    const files = recordedArtifacts();
    const final = JSON.parse(Buffer.from(files['daemon_status.json'] ?? 'e30=', 'base64').toString('utf8')) as Record<string, unknown>;
    let status: Record<string, unknown> = { status: 'waiting' };
    let exit: (code: number) => void = () => {};
    const exited = new Promise<number>((resolve) => { exit = resolve; });
    const authorized = (req: http.IncomingMessage): boolean => {
      if (!token) return false;
      const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
      return bearer === token || req.headers[ADAPTER_TOKEN_HEADER] === token;
    };
    // Runner routes answer as the image's adapter does: 403 without a token in the container,
    // 401 for a wrong one; POST /files checks its body and answers {ok, written}.
    const refused = (req: http.IncomingMessage, res: http.ServerResponse, path: string): boolean => {
      if (!token) { json(res, 403, { ok: false, error: `${path} needs the container to have ${ENV.adapterToken}` }); return true; }
      if (!authorized(req)) { json(res, 401, { ok: false, error: 'Unauthorized' }); return true; }
      return false;
    };
    // The first upload starts the run: running now, the recorded final status after runMs.
    const begin = (): void => {
      if (status.status !== 'waiting') return;
      status = { status: 'running', turn: 0, nb_turns: final.nb_turns ?? 1, num_events: 0, agent: final.agent, connected: true };
      setTimeout(() => { status = final; }, runMs).unref();
    };
    const handler: http.RequestListener = (req, res) => {
      const path = (req.url ?? '/').split('?')[0]!;
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.method === 'GET' && path === ROUTES.health) {
          const connected = status.status !== 'waiting';
          json(res, 200, { ok: connected, connected, backend: 'fake', agent: final.agent ?? 'oracle', status: status.status, buffer: { size: 0, lastSeq: 0 }, sseClients: 0 });
        } else if (req.method === 'GET' && path === ROUTES.status) {
          json(res, 200, status);
        } else if (req.method === 'POST' && path === FILES_ROUTE) {
          if (refused(req, res, path)) return;
          let files: unknown;
          try { files = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { files?: unknown }).files; } catch {
            json(res, 400, { ok: false, error: 'Invalid JSON' }); return;
          }
          if (!Array.isArray(files) || files.length === 0) { json(res, 400, { ok: false, error: '"files" must be a non-empty list' }); return; }
          begin();
          json(res, 200, { ok: true, written: files.length });
        } else if (req.method === 'PUT' && path === FILES_ROUTE) {
          if (refused(req, res, path)) return;
          const target = new URL(req.url ?? '/', 'http://pod').searchParams.get(FILE_PUT_QUERY.path);
          if (!target?.startsWith('/var/gaia2/')) { json(res, 400, { ok: false, error: `PUT /files needs ?${FILE_PUT_QUERY.path}= under /var/gaia2/` }); return; }
          begin();
          json(res, 200, { ok: true, written: 1, bytes: Buffer.concat(chunks).length });
        } else if (req.method === 'GET' && path === ROUTES.artifacts && (req.url ?? '').endsWith(`?${ARTIFACTS_TAR_QUERY}`)) {
          if (refused(req, res, path)) return;
          const done = status === final;
          const names = done ? Object.keys(files) : [];
          void packFiles(names.map((name) => ({ name, content: Buffer.from(files[name]!, 'base64') }))).then((tar) => {
            res.writeHead(200, { 'content-type': 'application/x-tar', [ARTIFACTS_TAR_HEADERS.missing]: done ? '' : Object.keys(files).join(','), [ARTIFACTS_TAR_HEADERS.unreadable]: '' }).end(tar);
          });
        } else if (req.method === 'GET' && path === ROUTES.artifacts) {
          if (refused(req, res, path)) return;
          const done = status === final;
          json(res, 200, { files: done ? files : {}, missing: done ? [] : Object.keys(files), unreadable: [] });
        } else if (req.method === 'POST' && path === ROUTES.shutdown) {
          if (refused(req, res, path)) return;
          res.on('finish', () => exit(0));
          json(res, 200, { ok: true });
        } else {
          json(res, 404, { error: 'Not found' });
        }
      });
    };
    return { handler, exited };
  };
}
