// One watch request: newline-delimited JSON events on a chunked 200 response, optional
// BOOKMARK events, ended by timeoutSeconds or the client. A resourceVersion the store no
// longer has becomes an in-stream ERROR event carrying a 410 Expired Status, as on a real
// API server.
import type http from 'node:http';
import { ApiError } from './status.js';
import type { Store, WatchFilter } from './store.js';
import { KINDS } from './types.js';

export interface WatchParams { resourceVersion?: string; timeoutSeconds?: number; bookmarks: boolean; bookmarkMs: number }

export function serveWatch(store: Store, filter: WatchFilter, p: WatchParams, res: http.ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-cache, private', 'transfer-encoding': 'chunked' });
  res.flushHeaders();
  const write = (line: unknown): void => { if (!res.writableEnded) res.write(`${JSON.stringify(line)}\n`); };
  let stop = (): void => {};
  const timers: NodeJS.Timeout[] = [];
  const end = (): void => {
    stop();
    for (const t of timers) { clearTimeout(t); clearInterval(t); }
    if (!res.writableEnded) res.end();
  };
  res.on('close', end);
  try {
    stop = store.watch(filter, p.resourceVersion, (e) => write(e));
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    write({ type: 'ERROR', object: err.toStatus() });
    end();
    return;
  }
  if (p.timeoutSeconds !== undefined && p.timeoutSeconds > 0) timers.push(setTimeout(end, p.timeoutSeconds * 1000));
  if (p.bookmarks) {
    timers.push(setInterval(() => write({
      type: 'BOOKMARK',
      object: { kind: KINDS[filter.resource], apiVersion: 'v1', metadata: { resourceVersion: store.resourceVersion } },
    }), p.bookmarkMs));
  }
}
