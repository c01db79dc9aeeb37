// The gateway's HTTP server. A request's first path segment names the upstream (one provider
// endpoint with its key); the credential the client presents in the provider's own header is a
// per-container token, checked against the run's tokens and that upstream; the rest of the path
// must be one of the provider's API paths. The real key replaces the token, the request goes to
// the provider (forward.ts) or, replaying, is answered from a finished run's record; every
// exchange is recorded.
import { budgetReason } from '../plan/budget.js';
import type { SpendBook } from './spend.js';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { limitsFor, type GatewayPlan } from '../config/gateway.js';
import type { PriceTable } from '../tokens/index.js';
import { DROPPED_REQUEST_HEADERS, errorBody, presentedToken, splitBase, type KindSpec } from './api-kinds.js';
import { forward, GAVE_UP_HEADER } from './forward.js';
import { Limiter, type LimiterStats } from './limiter.js';
import { estimateTokens } from './token-estimate.js';
import { refusedProviderTools } from './provider-tools.js';
import { modelOfRequest, TrafficRecorder, type Exchange } from './record.js';
import type { ReplaySource } from './replay.js';
import { TokenBook, type Grant, type Role } from './tokens.js';

export interface Upstream {
  /** Path segment naming it, e.g. "anthropic" or "openai-compat-2". */
  id: string;
  provider: string;
  spec: KindSpec;
  /** The provider's base URL (configured, or the SDK's default). */
  base: string;
  /** The real key; null for endpoints that take none (a local server). */
  key: string | null;
}

export interface GatewayOptions {
  upstreams: Upstream[];
  plan: Pick<GatewayPlan, 'limits' | 'retryAttempts' | 'retryBudgetSeconds'> & Partial<Pick<GatewayPlan, 'allowProviderTools'>>;
  prices: PriceTable | null;
  replay?: ReplaySource | null;
  /** The run's budget (plan/budget.ts): spend counted per container, calls past a cap refused. */
  spend?: SpendBook | null;
  listenHost?: string;
  port?: number;
  /** Backoff without retry-after (tests shorten it). */
  backoff?: { baseDelayMs: number; maxDelayMs: number };
  log?: (line: string) => void;
}

export interface GatewayFailure {
  provider: string;
  status: number;
  message: string;
  role: Role;
}

export interface GatewayStats {
  requests: number;
  by_role: Record<Role, number>;
  queued_total: number;
  throttled: number;
  retried: number;
  gave_up: number;
  /** Answers broken mid-stream, completed by splicing / cut through to the client. */
  resumed: number;
  broken: number;
  refused: number;
  replayed: number;
  /** Calls refused because a cap of the run's budget was met (also in `refused`). */
  over_budget: number;
  /** The agent side's spend through the gateway so far (tokens in + out, dollars priced). */
  spent: { tokens: number; usd: number };
  /** Per limiter (provider, or provider/model), now. */
  providers: Record<string, LimiterStats>;
}

export interface Gateway {
  readonly port: number;
  readonly host: string;
  readonly tokens: TokenBook;
  readonly recorder: TrafficRecorder;
  /** Base URL a client on this machine uses for an upstream (as its SDK expects it). */
  baseUrl(upstreamId: string): string;
  stats(): GatewayStats;
  /** The first request a container's role could not get answered (gave up), if any. */
  failureOf(container: string): GatewayFailure | null;
  /**
   * A container's run is over: its requests still in flight are abandoned (their connections
   * cut, nobody will read the answers) and resolved once each has its line in the record, so
   * the record a run's usage is read from is whole. Revoke its tokens first.
   */
  endRun(container: string): Promise<void>;
  close(): Promise<void>;
}

const MAX_BODY = 64 * 1024 * 1024;

/** A request's whole body; over `max` bytes an error with status 413. */
export async function readBody(req: IncomingMessage, max = MAX_BODY): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const c of req) {
    n += (c as Buffer).length;
    if (n > max) throw Object.assign(new Error(`request body over ${max} bytes`), { status: 413 });
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks);
}

interface Routed {
  upstream: Upstream;
  target: URL;
  /** The provider URL as recorded (no key). */
  recordUrl: string;
}

/** Upstream and provider URL of a request path; null when the path is no API path of it. */
function route(upstreams: Map<string, Upstream>, reqUrl: URL): Routed | { error: string; status: number } {
  const m = /^\/([^/]+)(\/.*)?$/.exec(reqUrl.pathname);
  const upstream = m ? upstreams.get(m[1]!) : undefined;
  if (!upstream) return { status: 404, error: `model gateway: no provider endpoint "${m?.[1] ?? ''}" in this run` };
  const { origin, root } = splitBase(upstream.base, upstream.spec);
  const rest = m![2] ?? '/';
  if (!(rest === root || rest.startsWith(`${root}/`))) return { status: 404, error: `model gateway: ${rest} is outside ${upstream.provider}'s API (${root || '/'})` };
  const below = rest.slice(root.length).replace(/^\/+/, '');
  if (!upstream.spec.paths.some((p) => p.test(below))) return { status: 404, error: `model gateway: ${below} is not an API path the gateway forwards for ${upstream.provider}` };
  const target = new URL(`${origin}${root}/${below}`);
  for (const [k, v] of reqUrl.searchParams) if (k !== 'key') target.searchParams.append(k, v);
  return { upstream, target, recordUrl: target.href };
}

/** The path of an upstream's base URL on the gateway, as its clients' SDKs expect it. */
export function upstreamPath(u: Pick<Upstream, 'id' | 'base' | 'spec'>): string {
  const { root, version } = splitBase(u.base, u.spec);
  // Anthropic clients add /v1 themselves (the reference passes the bare origin); Gemini's SDK wants the version in its base.
  const v = u.spec.kind === 'gemini' ? `/${version ?? 'v1beta'}` : u.spec.kind === 'openai' && version ? `/${version}` : '';
  return `/${u.id}${root}${v}`;
}

export async function startGateway(o: GatewayOptions): Promise<Gateway> {
  const upstreams = new Map(o.upstreams.map((u) => [u.id, u]));
  const tokens = new TokenBook();
  const recorder = new TrafficRecorder(o.prices);
  const limiters = new Map<string, Limiter>();
  const failures = new Map<string, GatewayFailure>();
  const dispatcher = new Agent({ keepAliveTimeout: 30_000, connections: null, headersTimeout: 600_000, bodyTimeout: 600_000 });
  const counts = { requests: 0, refused: 0, replayed: 0, over_budget: 0, by_role: { agent: 0, app_agent: 0, judge: 0 } as Record<Role, number> };
  /** Requests being answered, per container: each one's abort and its line written. */
  const inflight = new Map<string, Set<{ abort: AbortController; res: ServerResponse; done: Promise<void> }>>();
  // Left out (older callers, the cluster's pod before it passes it): sealed, so no web-reaching provider tool.
  const toolPolicy = o.plan.allowProviderTools === 'all' ? 'all' : new Set(o.plan.allowProviderTools ?? []);
  const budget = { attempts: o.plan.retryAttempts, seconds: o.plan.retryBudgetSeconds, backoff: o.backoff ?? { baseDelayMs: 1000, maxDelayMs: 30_000 } };

  const limiterFor = (provider: string, model: string | null): Limiter => {
    const specific = model && o.plan.limits.byKey[`${provider}/${model}`.toLowerCase()];
    const key = specific ? `${provider}/${model}` : provider;
    let l = limiters.get(key);
    if (!l) limiters.set(key, (l = new Limiter(key, limitsFor(o.plan.limits, provider, model))));
    return l;
  };

  const refuse = (res: ServerResponse, spec: KindSpec | null, status: number, message: string) => {
    counts.refused++;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(errorBody(spec?.kind ?? 'openai', status, message));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const reqUrl = new URL(req.url ?? '/', 'http://gateway');
    const r = route(upstreams, reqUrl);
    if ('error' in r) return refuse(res, null, r.status, r.error);
    const grant = tokens.check(presentedToken(req.headers, reqUrl));
    if (!grant || grant.upstream !== r.upstream.id)
      return refuse(res, r.upstream.spec, 401, 'model gateway: this credential is not a token of this run for this provider endpoint (tokens are per container and end with its run)');
    const over = o.spend?.over(grant.container, grant.role);
    if (over) {
      // not a rate limit (429 would be retried): the call is not made, and the runner ends the run
      counts.over_budget++;
      return refuse(res, r.upstream.spec, 402, `model gateway: ${budgetReason(over)}; no more model calls for this run`);
    }
    const abort = new AbortController();
    let recorded!: () => void;
    const entry = { abort, res, done: new Promise<void>((r) => (recorded = r)) };
    const mine = inflight.get(grant.container) ?? new Set();
    inflight.set(grant.container, mine.add(entry));
    try {
      await answer(req, res, r, grant, abort);
    } finally {
      mine.delete(entry);
      if (!mine.size && inflight.get(grant.container) === mine) inflight.delete(grant.container);
      recorded();
    }
  };

  const answer = async (req: IncomingMessage, res: ServerResponse, r: Routed, grant: Grant, abort: AbortController) => {
    const body = await readBody(req);
    const seq = recorder.nextSeq(grant);
    counts.requests++;
    counts.by_role[grant.role]++;
    const requestText = body.toString('utf8');
    const request = (() => {
      try {
        return JSON.parse(requestText) as unknown;
      } catch {
        return null;
      }
    })();
    const stream = Boolean((request as { stream?: unknown } | null)?.stream) || /:streamGenerateContent/.test(r.target.pathname);
    res.on('close', () => {
      if (!res.writableFinished) abort.abort(new Error('client went away'));
    });
    const startedAt = Date.now();
    const base = { grant, provider: r.upstream.provider, method: req.method ?? 'POST', url: r.recordUrl, startedAt, stream, requestText } as const;
    let ex: Exchange;
    const toolRefusal = refusedProviderTools(r.upstream.spec.kind, request, toolPolicy);
    if (toolRefusal) {
      // not forwarded; the refusal is a line of the traffic record like any answer
      counts.refused++;
      res.writeHead(403, { 'content-type': 'application/json' });
      res.end(errorBody(r.upstream.spec.kind, 403, toolRefusal));
      ex = { ...base, endedAt: Date.now(), queuedMs: 0, status: 403, attempts: [], responseText: '', error: toolRefusal };
    } else if (o.replay) {
      const a = o.replay.answer(grant, seq, { method: base.method, url: r.recordUrl, requestText });
      counts.replayed++;
      if ('mismatch' in a) {
        o.log?.(a.mismatch);
        res.writeHead(409, { 'content-type': 'application/json', [GAVE_UP_HEADER]: 'replay-mismatch' });
        res.end(errorBody(r.upstream.spec.kind, 409, a.mismatch));
        failures.set(grant.container, failures.get(grant.container) ?? { provider: r.upstream.provider, status: 409, message: a.mismatch, role: grant.role });
        ex = { ...base, endedAt: Date.now(), queuedMs: 0, status: 409, attempts: [], responseText: '', replayed: true, error: a.mismatch };
      } else {
        res.writeHead(a.status, { 'content-type': a.stream ? 'text/event-stream' : 'application/json' });
        res.end(a.body);
        ex = { ...base, endedAt: Date.now(), queuedMs: 0, status: a.status, attempts: [{ status: a.status, ms: 0 }], responseText: a.body, replayed: true };
      }
    } else {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !DROPPED_REQUEST_HEADERS.has(k.toLowerCase())) headers[k] = Array.isArray(v) ? v.join(', ') : v;
      // The record must be readable text: ask the provider for an uncompressed answer.
      headers['accept-encoding'] = 'identity';
      if (r.upstream.key) r.upstream.spec.inject(headers, r.upstream.key);
      const limiter = limiterFor(r.upstream.provider, modelOfRequest(request, r.recordUrl));
      let settle: ((n: number) => void) | null = null;
      try {
        const f = await forward({
          url: r.target,
          method: base.method,
          headers,
          body: body.length ? body : null,
          limiter,
          budget,
          dispatcher,
          res,
          signal: abort.signal,
          errorBody: (s, m) => errorBody(r.upstream.spec.kind, s, m),
          provider: r.upstream.provider,
          tokens: estimateTokens(requestText, request),
        });
        settle = f.settle;
        if (f.gaveUp && !failures.has(grant.container)) failures.set(grant.container, { provider: r.upstream.provider, status: f.gaveUp.status, message: f.gaveUp.message, role: grant.role });
        ex = { ...base, endedAt: Date.now(), queuedMs: f.queuedMs, status: f.status, attempts: f.attempts, responseText: f.responseText, ...(f.error ? { error: f.error } : {}) };
      } catch (e) {
        const ended = abort.signal.reason instanceof RunEnded;
        const error = ended ? RunEnded.note : `client went away: ${(e as Error).message}`;
        ex = { ...base, endedAt: Date.now(), queuedMs: 0, status: 0, attempts: [], responseText: '', error, ...(ended ? { abandoned: true } : {}) };
      }
      const line = recorder.line(seq, ex);
      o.spend?.add(grant.container, grant.role, line.usage, line.cost_usd);
      // The estimate it was admitted with becomes the provider's own count.
      if (line.usage) settle?.(line.usage.input_tokens + line.usage.output_tokens);
      await recorder.write(line, grant.dir).catch((e: unknown) => o.log?.(`model gateway: cannot write the traffic record: ${(e as Error).message}`));
      return;
    }
    const line = recorder.line(seq, ex);
    o.spend?.add(grant.container, grant.role, line.usage, line.cost_usd);
    await recorder.write(line, grant.dir).catch((e: unknown) => o.log?.(`model gateway: cannot write the traffic record: ${(e as Error).message}`));
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      const status = (e as { status?: number }).status ?? 500;
      if (!res.headersSent) refuse(res, null, status, `model gateway: ${(e as Error).message}`);
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 65_000;
  const listenHost = o.listenHost ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: listenHost, port: o.port ?? 0 }, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    port,
    host: listenHost,
    tokens,
    recorder,
    baseUrl(id) {
      const u = upstreams.get(id);
      if (!u) throw new Error(`model gateway: no upstream ${id}`);
      return `http://${listenHost.includes(':') ? `[${listenHost}]` : listenHost}:${port}${upstreamPath(u)}`;
    },
    stats() {
      const providers: Record<string, LimiterStats> = {};
      let queued_total = 0;
      let throttled = 0;
      let retried = 0;
      let gave_up = 0;
      let resumed = 0;
      let broken = 0;
      for (const [k, l] of limiters) {
        const s = l.snapshot();
        providers[k] = s;
        queued_total += s.queued_total;
        throttled += s.throttled;
        retried += s.retried;
        gave_up += s.gave_up;
        resumed += s.resumed;
        broken += s.broken;
      }
      return { requests: counts.requests, by_role: { ...counts.by_role }, queued_total, throttled, retried, gave_up, resumed, broken, refused: counts.refused, replayed: counts.replayed, over_budget: counts.over_budget, spent: o.spend?.totals() ?? { tokens: 0, usd: 0 }, providers };
    },
    failureOf: (c) => failures.get(c) ?? null,
    async endRun(container) {
      const open = [...(inflight.get(container) ?? [])];
      for (const x of open) {
        x.abort.abort(new RunEnded());
        x.res.destroy();
      }
      await Promise.all(open.map((x) => x.done));
    },
    async close() {
      for (const l of limiters.values()) l.close(new Error('model gateway closed'));
      await recorder.flush();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await dispatcher.close().catch(() => {});
    },
  };
}

/** Why a request was abandoned when its container's run ended before the answer did. */
class RunEnded extends Error {
  static readonly note = "abandoned: the run ended before the provider's answer did";
  constructor() {
    super('the run ended');
  }
}

export type { Grant };
