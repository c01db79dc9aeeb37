// The judge's model calls answered from its recorded traffic (judge_trace.jsonl), never the
// network: the real judge backend is built with a fetch that looks each request body up in the
// record. A request the record does not hold is a miss, which `verify` reports as a failure.
import { canonicalJson } from '../provenance/index.js';

interface RecordedCall {
  url: string;
  request: string;
  status: number;
  response: string;
  used: boolean;
}

export interface ReplayFetch {
  fetch: typeof globalThis.fetch;
  /**
   * The base URL of recorded chat-completions calls, if any. A judge whose settings name no base
   * URL still spoke chat completions when the model gateway stood in front of it (an OpenAI
   * judge with a base URL does); the replay has to build the same requests.
   */
  chatBaseUrl: string | null;
  /** One line per request the record could not answer. */
  misses: string[];
}

function recordedCalls(traceText: string): RecordedCall[] {
  const calls: RecordedCall[] = [];
  for (const line of traceText.split('\n')) {
    if (!line.trim()) continue;
    let o: Record<string, unknown>;
    try {
      o = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue; // a torn last line answers nothing
    }
    if (o.type !== 'llm_call') continue;
    calls.push({ url: typeof o.url === 'string' ? o.url : '', request: canonicalJson(o.request), status: typeof o.http_status === 'number' ? o.http_status : 0, response: typeof o.raw_response === 'string' ? o.raw_response : '', used: false });
  }
  return calls;
}

function bodyText(body: unknown): string {
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return Buffer.from(body).toString('utf8');
  return '';
}

/** A fetch over judge_trace.jsonl's text: each recorded call answers once, its successful attempt first. */
export function replayFetch(traceText: string): ReplayFetch {
  const calls = recordedCalls(traceText);
  const misses: string[] = [];
  const fetch = (async (input: Parameters<typeof globalThis.fetch>[0], init?: RequestInit) => {
    const text = bodyText(init?.body);
    let key: string;
    try {
      key = canonicalJson(JSON.parse(text));
    } catch {
      key = JSON.stringify(text);
    }
    const open = calls.filter((c) => !c.used && c.request === key);
    const hit = open.find((c) => c.status >= 200 && c.status < 300) ?? open[0];
    if (!hit) {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      misses.push(`judge call to ${url} not in judge_trace.jsonl (request ${text.slice(0, 120)}…)`);
      return new Response(JSON.stringify({ error: { message: 'not in the recorded judge traffic' } }), { status: 400, headers: { 'content-type': 'application/json' } });
    }
    hit.used = true;
    return new Response(hit.response, { status: hit.status || 200, headers: { 'content-type': 'application/json' } });
  }) as typeof globalThis.fetch;
  const chat = calls.find((c) => c.url.includes('/chat/completions'));
  return { fetch, misses, chatBaseUrl: chat ? chat.url.slice(0, chat.url.indexOf('/chat/completions')) : null };
}
