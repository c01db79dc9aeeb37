// The traffic record: one JSON line per model request that passed the gateway, appended to
// `<scenario dir>/model_traffic.jsonl` (docs/gateway.md, docs/trace-format.md). A line is a
// trace line of the image's own format (seq, timestamp, url, http_status, request,
// raw_response, usage, attempt) so everything that reads trace.jsonl reads it too, plus who
// asked (role, container), the world's clock stamp `t` (Unix seconds, as events.jsonl's `t`),
// the attempts the gateway made, the time spent queued, and the cost at the table price.
import { appendFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { usageOf, type CallUsage } from '@gaia2/contract/lib/llm/trace-usage';
import { costUsd, type PriceTable } from '../tokens/index.js';
import { modelOfRequest } from '../trace/index.js';
import { redact } from '../secrets/redact.js';
import type { Grant, Role } from './tokens.js';

export { TRAFFIC_FILE } from '../trace/traffic-lines.js';
import { TRAFFIC_FILE } from '../trace/traffic-lines.js';

export interface AttemptNote {
  status: number;
  ms: number;
  error?: string;
  /** This attempt repeated a broken answer's first N bytes exactly and the rest was spliced on. */
  resumed_after?: number;
}

export interface TrafficLine {
  seq: number;
  timestamp: string;
  /** Request start, Unix seconds (the clock of events.jsonl's `t`). */
  t: number;
  t_end: number;
  type: 'llm_call';
  role: Role;
  container: string;
  scenario: string;
  run_index: number | null;
  provider: string;
  model: string | null;
  method: string;
  /** The provider URL the request went to (no key in it). */
  url: string;
  latency_ms: number;
  queued_ms: number;
  http_status: number;
  /** How many upstream attempts this request took (1 = no retry). */
  attempt: number;
  attempts: AttemptNote[];
  stream: boolean;
  request: unknown;
  raw_response: string;
  usage: CallUsage | null;
  cost_usd: number | null;
  /** Set when the answer came from a recorded run (--replay), not a provider. */
  replayed?: true;
  /** Why the client got no provider answer (gave up, dropped connection). */
  error?: string;
  /**
   * The container's run ended while this request was being answered: the gateway gave it up
   * (nobody would read the answer). The harness's doing, not a provider failure.
   */
  abandoned?: true;
}

export interface Exchange {
  grant: Grant;
  provider: string;
  method: string;
  url: string;
  startedAt: number;
  endedAt: number;
  queuedMs: number;
  status: number;
  attempts: AttemptNote[];
  stream: boolean;
  requestText: string;
  responseText: string;
  replayed?: boolean;
  error?: string;
  abandoned?: boolean;
}

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The model a request names (body `model`, or Gemini's models/<m>:… path). */
export { modelOfRequest };

export class TrafficRecorder {
  private readonly seq = new Map<string, number>();
  private readonly chains = new Map<string, Promise<void>>();

  constructor(private readonly prices: PriceTable | null) {}

  /** The request's number within its container and role, taken when the request arrives. */
  nextSeq(g: Grant): number {
    const k = `${g.container}\u0000${g.role}`;
    const n = (this.seq.get(k) ?? 0) + 1;
    this.seq.set(k, n);
    return n;
  }

  line(seq: number, x: Exchange): TrafficLine {
    const request = parseBody(x.requestText);
    const model = modelOfRequest(request, x.url);
    const usage = x.status >= 200 && x.status < 300 ? usageOf(x.responseText) : null;
    return {
      seq,
      timestamp: new Date(x.startedAt).toISOString(),
      t: x.startedAt / 1000,
      t_end: x.endedAt / 1000,
      type: 'llm_call',
      role: x.grant.role,
      container: x.grant.container,
      scenario: x.grant.scenario,
      run_index: x.grant.runIndex,
      provider: x.provider,
      model,
      method: x.method,
      url: x.url,
      latency_ms: Math.max(0, x.endedAt - x.startedAt - x.queuedMs),
      queued_ms: x.queuedMs,
      http_status: x.status,
      attempt: Math.max(1, x.attempts.length),
      attempts: x.attempts,
      stream: x.stream,
      request,
      raw_response: x.responseText,
      usage,
      cost_usd: usage && this.prices ? costUsd(this.prices, model, usage) : null,
      ...(x.replayed ? { replayed: true as const } : {}),
      ...(x.error ? { error: x.error } : {}),
      ...(x.abandoned ? { abandoned: true as const } : {}),
    };
  }

  /** Appends a line to its container's record (in order per file); no-op without a directory. */
  write(l: TrafficLine, dir: string | null): Promise<void> {
    if (!dir) return Promise.resolve();
    const file = join(dir, TRAFFIC_FILE);
    const text = `${redact(JSON.stringify(l))}\n`;
    const next = (this.chains.get(file) ?? Promise.resolve()).then(async () => {
      await mkdir(dir, { recursive: true });
      await appendFile(file, text);
    });
    this.chains.set(file, next.catch(() => {}));
    return next;
  }

  /** Waits until every line handed over is on disk. */
  async flush(): Promise<void> {
    await Promise.all([...this.chains.values()]);
  }
}
