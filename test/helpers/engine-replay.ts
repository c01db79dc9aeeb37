// An engine API on a unix socket that answers with responses recorded from the real engines
// (test/fixtures/engine-wire/<engine>/<name>.http: status line, headers and body as `curl -i`
// printed them against podman 4.3 and Docker 20.10 on this project's CI machine). Used where the
// real answer cannot be produced on demand (a registry that does not answer). Requests are
// recorded, bodies included, so a test can check what the runner sent.
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type WireEngine = 'podman' | 'docker';

export interface RecordedRequest {
  method: string;
  url: URL;
  body: Buffer;
}

/** Picks the fixture (file name without .http) for a request; null answers 404 from the test. */
export type Route = (req: RecordedRequest, earlier: readonly RecordedRequest[]) => string | null;

export interface EngineReplay {
  socketPath: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

const fixtures = join(import.meta.dirname, '..', 'fixtures', 'engine-wire');

export function recordedResponse(engine: WireEngine, name: string): { status: number; headers: Record<string, string>; body: Buffer } {
  const raw = readFileSync(join(fixtures, engine, `${name}.http`));
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.subarray(0, split).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head[0]!)?.[1]);
  const headers: Record<string, string> = {};
  for (const line of head.slice(1)) {
    const i = line.indexOf(':');
    const k = line.slice(0, i).toLowerCase();
    // Length and framing are the server's own business here (curl printed a de-chunked body).
    if (k !== 'content-length' && k !== 'transfer-encoding' && k !== 'date') headers[k] = line.slice(i + 1).trim();
  }
  return { status, headers, body: raw.subarray(split + 4) };
}

export async function startEngineReplay(engine: WireEngine, route: Route): Promise<EngineReplay> {
  const socketPath = join(mkdtempSync(join(tmpdir(), 'gaia2-replay-')), 'engine.sock');
  const requests: RecordedRequest[] = [];
  const server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const rec = { method: req.method ?? 'GET', url: new URL(req.url ?? '/', 'http://engine'), body: Buffer.concat(chunks) };
    const earlier = [...requests];
    requests.push(rec);
    if (/\/_ping$/.test(rec.url.pathname)) {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('OK');
      return;
    }
    const name = route(rec, earlier);
    if (!name) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ message: `no recorded answer for ${rec.method} ${rec.url.pathname}` }));
      return;
    }
    const r = recordedResponse(engine, name);
    res.writeHead(r.status, r.headers).end(r.body);
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  return { socketPath, requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
