// The in-cluster gateway's admin API (protocol.ts): what only the runner may call, through
// the API server's pod proxy. Every request must carry the run's admin token (from the
// gateway's Secret), so a scenario Pod that finds the gateway Pod's address can do nothing here.
import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody, type GatewayStats } from '../server.js';
import { ADMIN_HEADER, type FinishAnswer, type FinishBody, type RegisterBody, type SpendAnswer } from './protocol.js';

export interface AdminHandlers {
  adminToken: string;
  port: number;
  register(b: RegisterBody): Promise<void>;
  finish(b: FinishBody): Promise<FinishAnswer>;
  stats(): GatewayStats;
  /** Absent on a gateway without a budget (GET /spend is then 404). */
  spend?(): SpendAnswer;
}

const MAX_BODY = 256 * 1024 * 1024;

async function jsonBody<T>(req: IncomingMessage): Promise<T> {
  const body = await readBody(req, MAX_BODY);
  try {
    return JSON.parse(body.toString('utf8')) as T;
  } catch {
    throw Object.assign(new Error('malformed JSON'), { status: 400 });
  }
}

function allowed(presented: string | string[] | undefined, token: string): boolean {
  if (typeof presented !== 'string') return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function startAdmin(h: AdminHandlers): Promise<{ port: number; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const path = new URL(req.url ?? '/', 'http://admin').pathname;
    if (path === '/healthz' && req.method === 'GET') return send(200, { ok: true });
    if (!allowed(req.headers[ADMIN_HEADER], h.adminToken)) return send(401, { error: 'admin token required' });
    const route = `${req.method} ${path}`;
    const run = async () => {
      if (route === 'POST /containers') return send(200, (await h.register(await jsonBody<RegisterBody>(req)), { ok: true }));
      if (route === 'POST /containers/finish') return send(200, await h.finish(await jsonBody<FinishBody>(req)));
      if (route === 'GET /stats') return send(200, h.stats());
      if (route === 'GET /spend' && h.spend) return send(200, h.spend());
      return send(404, { error: `no admin route ${route}` });
    };
    run().catch((e: unknown) => send((e as { status?: number }).status ?? 500, { error: (e as Error).message }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: '0.0.0.0', port: h.port }, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
