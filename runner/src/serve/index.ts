// `serve`: the viewer over HTTP with live updates. Loopback only unless a host is given.
import { createServer, type Server } from 'node:http';
import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildViewerDetailed } from '../viewer/index.js';
import { LiveHub } from './live-hub.js';
import { watchAndRebuild } from './rebuild-watcher.js';
import { serveFile } from './static-files.js';
import { urlHost } from '../net/gateway.js';

export interface ServeOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default: the first free port of 44100–44109, else any free port. */
  port?: number;
  /** Debounce between a file change and the rebuild (ms). */
  debounceMs?: number;
}

export interface ServeHandle {
  url: string;
  close(): Promise<void>;
}

export const DEFAULT_PORTS = Array.from({ length: 10 }, (_, i) => 44100 + i);

function listen(server: Server, host: string, port: number): Promise<number | null> {
  return new Promise((resolvePort, reject) => {
    const onError = (err: NodeJS.ErrnoException): void => {
      server.off('listening', onListening);
      if (err.code === 'EADDRINUSE' || err.code === 'EACCES') resolvePort(null);
      else reject(err);
    };
    const onListening = (): void => {
      server.off('error', onError);
      const addr = server.address();
      resolvePort(typeof addr === 'object' && addr ? addr.port : port);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

export async function serve(dir: string, opts: ServeOptions = {}): Promise<ServeHandle> {
  const root = realpathSync(resolve(dir));
  if (!statSync(root).isDirectory()) throw new Error(`serve: ${root} is not a directory`);
  const host = opts.host ?? '127.0.0.1';
  buildViewerDetailed(root, { incremental: true }); // pages exist before the first request

  const hub = new LiveHub();
  const server = createServer((req, res) => {
    if (req.url === '/__live') return hub.attach(res);
    serveFile(root, req, res);
  });
  let port: number | null = null;
  const candidates = opts.port !== undefined ? [opts.port] : [...DEFAULT_PORTS, 0];
  for (const p of candidates) {
    port = await listen(server, host, p);
    if (port !== null) break;
  }
  if (port === null) {
    throw new Error(opts.port !== undefined ? `serve: port ${opts.port} on ${host} is in use` : `serve: no free port on ${host}`);
  }
  const watcher = watchAndRebuild(root, (pages) => hub.publish(pages), { debounceMs: opts.debounceMs });
  const shownHost = urlHost(host);
  return {
    url: `http://${shownHost === '0.0.0.0' ? '127.0.0.1' : shownHost}:${port}/`,
    async close() {
      await watcher.close();
      hub.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
