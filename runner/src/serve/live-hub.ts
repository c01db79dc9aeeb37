// Server-sent events to open pages: after each rebuild, the URL paths of pages that changed.
import type { ServerResponse } from 'node:http';
import { BASE_HEADERS } from './static-files.js';

export class LiveHub {
  private readonly clients = new Set<ServerResponse>();
  private readonly keepAlive: NodeJS.Timeout;

  constructor() {
    this.keepAlive = setInterval(() => this.write(': keep-alive\n\n'), 15_000);
    this.keepAlive.unref();
  }

  get size(): number {
    return this.clients.size;
  }

  attach(res: ServerResponse): void {
    res.writeHead(200, { ...BASE_HEADERS, 'Content-Type': 'text/event-stream; charset=utf-8', Connection: 'keep-alive' });
    res.write('retry: 2000\n\n');
    this.clients.add(res);
    res.on('close', () => this.clients.delete(res));
  }

  publish(pages: string[]): void {
    if (pages.length) this.write(`event: rebuilt\ndata: ${JSON.stringify({ pages })}\n\n`);
  }

  close(): void {
    clearInterval(this.keepAlive);
    for (const c of this.clients) c.end();
    this.clients.clear();
  }

  private write(chunk: string): void {
    for (const c of this.clients) c.write(chunk);
  }
}
