// Ring buffer of agent replies for GET /messages and the GET /events SSE stream.
import type { ServerResponse } from 'node:http';
import type { BufferedMessage } from '../contract/routes.js';

export class MessageBuffer {
  private readonly entries: BufferedMessage[] = [];
  private seq = 0;
  private readonly clients = new Set<ServerResponse>();

  constructor(private readonly size = 200) {}

  get lastSeq(): number {
    return this.seq;
  }

  get length(): number {
    return this.entries.length;
  }

  get sseClients(): number {
    return this.clients.size;
  }

  push(e: { message: string; run_id?: string; state?: 'final' | 'error' }): BufferedMessage {
    const entry: BufferedMessage = { seq: ++this.seq, timestamp: new Date().toISOString(), ...e };
    this.entries.push(entry);
    if (this.entries.length > this.size) this.entries.shift();
    for (const c of this.clients) c.write(sseEvent(entry));
    return entry;
  }

  after(seq: number): BufferedMessage[] {
    return this.entries.filter((e) => e.seq > seq);
  }

  /** Starts an SSE stream: a greeting comment, then every buffered and future entry. */
  subscribe(res: ServerResponse): void {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    res.write(': connected to gaia2-adapter SSE stream\n\n');
    for (const e of this.entries) res.write(sseEvent(e));
    this.clients.add(res);
    res.on('close', () => this.clients.delete(res));
  }

  closeAll(): void {
    for (const c of this.clients) c.end();
    this.clients.clear();
  }
}

const sseEvent = (e: BufferedMessage): string => `event: chat\ndata: ${JSON.stringify(e)}\n\n`;
