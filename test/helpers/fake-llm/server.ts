// A scripted LLM endpoint on 127.0.0.1 speaking one real wire format. Each HTTP call takes the
// next script entry; every request is recorded so tests can inspect what the client sent.
import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropic } from './formats/anthropic.js';
import { gemini } from './formats/gemini.js';
import { openaiChat } from './formats/openai-chat.js';
import { openaiResponses } from './formats/openai-responses.js';
import type { ResolvedToolCall, WireFormat } from './formats/types.js';
import { isFailure, type FakeFormat, type FakeReply, type FakeScriptItem } from './script.js';
import { listenOutsideEphemeral } from '../listen-port.js';

const FORMATS: Record<FakeFormat, WireFormat> = {
  'openai-chat': openaiChat,
  'openai-responses': openaiResponses,
  anthropic,
  gemini,
};

export interface RecordedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body (the raw text when it is not JSON). */
  body: any;
  stream: boolean;
}

export interface FakeBilling {
  /** Answers sent (HTTP 200). */
  responses: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export interface FakeLlmOptions {
  format: FakeFormat;
  script?: FakeScriptItem[];
  /** Answer given once the script is used up; without it the server answers 400 "script exhausted". */
  fallback?: FakeScriptItem;
  /**
   * A model that reads its conversation: answers each request from what it holds (before the
   * script). For clients whose calls interleave (parallel runs, app agents beside the agent).
   */
  respond?: (req: RecordedRequest) => FakeScriptItem | undefined | Promise<FakeScriptItem | undefined>;
  /**
   * A provider with a concurrency limit: while `concurrent` answers are in progress, further
   * requests get 429 with `retry-after` (seconds) in the format's error body, as a busy provider
   * answers. Refused requests are recorded and counted (`refusals`), not scripted.
   */
  admit?: { concurrent: number; retryAfter?: number };
  /**
   * Answer one request always with the same bytes (a seeded, temperature-0 server): ids, stamps
   * and default usage derive from the request, not from a counter of answers.
   */
  deterministic?: boolean;
  /** Bind address; 127.0.0.1 unless a container must reach it through a host alias. */
  host?: string;
  port?: number;
}

export interface FakeLlm {
  /** Base URL to give the provider (ends in /v1, or /v1beta for Gemini). */
  url: string;
  /** Origin only (http://host:port), for clients that add their own version prefix. */
  origin: string;
  port: number;
  /** The base URL as another host sees it, e.g. urlFor('host.containers.internal') from a container. */
  urlFor(hostname: string): string;
  requests: RecordedRequest[];
  /** 429 answers given because of `admit`. */
  refusals(): number;
  /** Usage of every answer given (what the provider billed), in order. */
  billed: Array<{ input: number; output: number; cacheRead?: number; cacheWrite?: number }>;
  /** Append more script entries while the server runs. */
  push(...items: FakeScriptItem[]): void;
  /** Entries not consumed yet. */
  remaining(): number;
  /** What the double billed: the usage of every answer it sent, summed (failures bill nothing). */
  billing(): FakeBilling;
  close(): Promise<void>;
}

async function readBody(req: import('node:http').IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startFakeLlm(options: FakeLlmOptions): Promise<FakeLlm> {
  const format = FORMATS[options.format];
  if (!format) throw new Error(`startFakeLlm: unknown format "${options.format}"`);
  const queue: FakeScriptItem[] = [...(options.script ?? [])];
  const requests: RecordedRequest[] = [];
  let responses = 0;
  let toolCallIds = 0;
  let inProgress = 0;
  let refusals = 0;
  const billed: FakeLlm['billed'] = [];

  const server: Server = createServer(async (req, res) => {
    const [path = '', query = ''] = (req.url ?? '').split('?', 2);
    const text = await readBody(req);
    let body: any = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* keep raw text */
    }
    const stream = format.isStreaming(path, body);
    const recorded: RecordedRequest = { method: req.method ?? '', path, query, headers: req.headers, body, stream };
    requests.push(recorded);

    const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(payload));
    };
    if (req.method !== 'POST' || !format.accepts(path)) {
      send(404, format.errorBody(404, `fake-llm (${options.format}) has no route ${req.method} ${path}`));
      return;
    }
    if (options.admit && inProgress >= options.admit.concurrent) {
      refusals++;
      send(429, format.errorBody(429, 'fake-llm: too many concurrent requests'), options.admit.retryAfter !== undefined ? { 'retry-after': String(options.admit.retryAfter) } : {});
      return;
    }
    inProgress++;
    res.on('close', () => inProgress--);
    const item = (await options.respond?.(recorded)) ?? queue.shift() ?? options.fallback;
    if (!item) {
      send(400, format.errorBody(400, 'fake-llm: script exhausted'));
      return;
    }
    if (item.delayMs) await sleep(item.delayMs);
    if (isFailure(item)) {
      const headers: Record<string, string> = item.retryAfter !== undefined ? { 'retry-after': String(item.retryAfter) } : {};
      send(item.status, format.errorBody(item.status, item.message ?? `fake-llm scripted HTTP ${item.status}`), headers);
      return;
    }
    responses += 1;
    const n = options.deterministic ? 1 + (createHash('sha256').update(`${path}\n${text}`).digest().readUInt32BE(0) % 100_000) : responses;
    const toolCalls: ResolvedToolCall[] = (item.toolCalls ?? []).map((c, k) => ({
      id: c.id ?? (options.deterministic ? `call_${n}_${k + 1}` : `call_${++toolCallIds}`),
      name: c.name,
      args: c.args,
    }));
    const ctx = {
      model: format.model(path, body),
      reply: item,
      toolCalls,
      n,
      usage: item.usage ?? { input: 100 + n, output: 10 + n },
    };
    const drop = (item as FakeReply).drop;
    if ((item as FakeReply).raw !== undefined) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end((item as FakeReply).raw);
      return;
    }
    if (drop === 'before-body') {
      res.writeHead(200, { 'content-type': stream ? 'text/event-stream' : 'application/json' });
      res.flushHeaders();
      setTimeout(() => res.socket?.destroy(), 20);
      return;
    }
    if (!stream) {
      billed.push(ctx.usage);
      send(200, format.json(ctx));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const events = format.sse(ctx);
    if (drop === 'mid-stream') {
      for (const event of events.slice(0, Math.max(1, Math.floor(events.length / 2)))) res.write(event);
      setTimeout(() => res.socket?.destroy(), 20);
      return;
    }
    billed.push(ctx.usage);
    for (const event of events) res.write(event);
    res.end();
  });

  if (options.port !== undefined) {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
    });
  } else {
    await listenOutsideEphemeral(server, options.host ?? '127.0.0.1');
  }
  const { port } = server.address() as AddressInfo;
  const hostForUrl = options.host && options.host !== '0.0.0.0' ? options.host : '127.0.0.1';
  const prefix = options.format === 'gemini' ? '/v1beta' : '/v1';
  const origin = `http://${hostForUrl}:${port}`;
  return {
    url: `${origin}${prefix}`,
    origin,
    port,
    urlFor: (hostname) => `http://${hostname}:${port}${prefix}`,
    requests,
    refusals: () => refusals,
    billed,
    push: (...items) => void queue.push(...items),
    remaining: () => queue.length,
    billing: () =>
      billed.reduce<FakeBilling>(
        (sum, u) => ({ responses: sum.responses + 1, input: sum.input + u.input, output: sum.output + u.output, cacheRead: sum.cacheRead + (u.cacheRead ?? 0), cacheWrite: sum.cacheWrite + (u.cacheWrite ?? 0) }),
        { responses: 0, input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
      ),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
