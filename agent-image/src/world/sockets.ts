// The daemon's two Unix sockets:
//  - agent socket: one agent runtime at a time, JSON lines (contract/agent-protocol.ts);
//  - CLI socket: HTTP for the app CLI thin clients (rootfs/usr/local/bin/<cli>, bash + curl):
//      POST /cli/<name>   body: form-encoded n=<argc>&a=<arg1>&a=<arg2>…
//      → 200, body = stdout, header x-gaia2-exit = exit code,
//        header x-gaia2-stderr = stderr, percent-encoded (every byte but [A-Za-z0-9_.-])
//      GET /time          → "YYYY-MM-DD HH:MM:SS\n" sim time (for the agent's `date`)
// Requests carry no environment, so an agent cannot pass GAIA2_EVENT_ID or a state dir.
import { chmodSync, rmSync } from 'node:fs';
import { nodeHttp, type Server } from '../platform/node-http.js';
import net from 'node:net';
import { AgentSession } from './agent-session.js';
import { readBody } from './http-body.js';
import type { WorldDaemon } from './daemon.js';

const MAX_BODY = 1 << 20;
const MAX_STDERR = 30_000;

function listenUnix(server: net.Server, path: string): Promise<void> {
  rmSync(path, { force: true });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.removeListener('error', reject);
      chmodSync(path, 0o666); // the agent user connects; the protocol gives it nothing more
      resolve();
    });
  });
}

/** Accepts agent runtimes on `path` (one at a time). */
export async function serveAgentSocket(world: WorldDaemon, path: string, tools: string[]): Promise<net.Server> {
  let current: AgentSession | null = null;
  let currentSocket: net.Socket | null = null;
  const server = net.createServer((socket) => {
    if (currentSocket && !currentSocket.destroyed) {
      socket.end(JSON.stringify({ type: 'error', message: 'another agent runtime is already connected' }) + '\n');
      return;
    }
    current = new AgentSession(world, socket, tools);
    currentSocket = socket;
    world.attachAgent(current);
  });
  await listenUnix(server, path);
  return server;
}

export const encodeStderr = (s: string): string =>
  Array.from(Buffer.from(s.length > MAX_STDERR ? s.slice(0, MAX_STDERR) + '\n[stderr truncated]\n' : s, 'utf8'))
    .map((b) => (/[A-Za-z0-9_.-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : '%' + b.toString(16).padStart(2, '0').toUpperCase()))
    .join('');

/** Serves app commands for the thin clients; `allowed` = CLIs of the scenario's apps. */
export async function serveCliSocket(world: WorldDaemon, path: string, allowed: ReadonlySet<string>): Promise<Server> {
  const server = nodeHttp().createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://gaia2');
    if (req.method === 'GET' && url.pathname === '/time') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end(world.clock.text() + '\n');
      return;
    }
    const m = /^\/cli\/([a-z-]+)$/.exec(url.pathname);
    if (req.method !== 'POST' || !m) {
      res.writeHead(404).end();
      return;
    }
    void readBody(req, MAX_BODY).then((raw) => {
      const name = m[1]!;
      const reply = (stdout: string, stderr: string, code: number): void => {
        res.writeHead(200, {
          'content-type': 'application/octet-stream',
          'x-gaia2-exit': String(code),
          'x-gaia2-stderr': encodeStderr(stderr),
        });
        res.end(stdout);
      };
      if (raw === null) return reply('', `${name}: arguments too long\n`, 2);
      if (!allowed.has(name)) return reply('', `bash: ${name}: command not found\n`, 127);
      const form = new URLSearchParams(raw.toString('utf8'));
      const args = form.getAll('a');
      if (String(args.length) !== form.get('n')) return reply('', `${name}: malformed request\n`, 2);
      world.agentCli([name, ...args]).then(
        (r) => reply(r.stdout, r.stderr, r.exitCode),
        (e: unknown) => reply('', `${name}: internal error: ${(e as Error).message}\n`, 1),
      );
    });
  });
  await listenUnix(server, path);
  return server;
}
