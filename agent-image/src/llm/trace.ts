// The LLM trace file: one JSON line per HTTP call, in the reference's raw format (viewer.md
// §1.1, Format A) plus a `usage` field. Lines are appended whole with one write each.
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Redactor } from './redact.js';
import { usageOf, type CallUsage } from './trace-usage.js';

export interface TraceLine {
  seq: number;
  timestamp: string;
  type: 'llm_call';
  url: string;
  latency_ms: number;
  http_status: number;
  request: unknown;
  raw_response: string;
  /** Our addition: token usage of this call when the body states it. */
  usage: CallUsage | null;
  /** Our addition: 1 for the first attempt, 2+ for retries of the same request. */
  attempt: number;
  /** Our addition: which app agent made the call (Agent2Agent; absent for the main agent). */
  app_agent?: AppAgentTag;
}

/** Names an app agent's conversation: its app and the expert_agent call it serves. */
export interface AppAgentTag {
  /** 1-based number of the expert_agent call in this scenario run. */
  call: number;
  /** Scenario app name (e.g. "Calendar"). */
  app: string;
  /** The CLI the main agent called (e.g. "calendar"). */
  cli: string;
}

export interface TraceCall {
  url: string;
  startedAt: number;
  status: number;
  requestBody: string | undefined;
  responseText: string;
  attempt: number;
}

export class TraceWriter {
  private seq = 0;
  private readonly pending = new Set<Promise<unknown>>();
  /** Usage summed over every call written so far. */
  readonly totals = { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0, llm_calls: 0 };

  constructor(
    readonly file: string | undefined,
    private readonly redact: Redactor,
    private readonly tag?: AppAgentTag,
  ) {
    if (file) mkdirSync(dirname(file), { recursive: true });
  }

  write(call: TraceCall): TraceLine {
    const requestText = this.redact(call.requestBody ?? '');
    let request: unknown = requestText;
    try {
      request = JSON.parse(requestText);
    } catch {
      /* keep the text */
    }
    const raw = this.redact(call.responseText);
    const usage = usageOf(raw);
    const line: TraceLine = {
      seq: ++this.seq,
      timestamp: new Date(call.startedAt).toISOString(),
      type: 'llm_call',
      url: this.redact(call.url),
      latency_ms: Math.max(0, Math.round(Date.now() - call.startedAt)),
      http_status: call.status,
      request,
      raw_response: raw,
      usage,
      attempt: call.attempt,
      ...(this.tag ? { app_agent: this.tag } : {}),
    };
    this.totals.llm_calls += 1;
    if (usage) {
      this.totals.input_tokens += usage.input_tokens;
      this.totals.output_tokens += usage.output_tokens;
      this.totals.cache_read_tokens += usage.cache_read_tokens;
      this.totals.cache_write_tokens += usage.cache_write_tokens;
    }
    if (this.file) appendFileSync(this.file, JSON.stringify(line) + '\n');
    return line;
  }

  /** Tracks a write that happens once a response body has been read to the end. */
  track(p: Promise<unknown>): void {
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p));
  }

  /** Resolves when every response body seen so far has been written. */
  async flush(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }
}
