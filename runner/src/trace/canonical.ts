// A normalised trace row: what the pages render. Keys are unified across providers
// (docs/trace-format.md, "Reading traces"), unlike the reference's provider-shaped dicts.
import { contentToBlocks, toolCallsToBlocks, type Block, type Message } from './blocks.js';
import { asNum, asObj, asStr, isObj, type Obj } from './json-util.js';
import { detectProvider, modelOf, type Provider } from './provider.js';
import { requestMessages } from './request.js';
import { normalizeEntry } from './response.js';
import { costUsd, defaultPriceTable } from '../tokens/index.js';
import { callTokens, unifyUsage, type Usage } from './usage.js';

export interface CallError {
  title: string;
  detail: string;
}

export interface CanonicalCall {
  seq: number;
  timestamp: string | null;
  url: string;
  latencyMs: number;
  status: number;
  model: string;
  provider: Provider;
  requestMessages: Message[];
  response: Message;
  stopReason: string;
  usage: Usage;
  costUsd: number | null;
  error: CallError | null;
  /** Set when the body could not be parsed (e.g. Hermes' 50 KB truncation): the start of it. */
  unparsed: string | null;
  /** A failed attempt (429/5xx/network) that the agent retried with the same request. */
  retried: boolean;
  /** Our agent's attempt counter (1 = first try); 0 when the writer does not record it. */
  attempt: number;
}

/** Rows with nothing to render: Hermes summary rows and npm downloads of the agent runtime. */
export function isRenderableRow(row: Obj): boolean {
  if (asStr(row.url).includes('registry.npmjs.org')) return false;
  return isObj(row.request) || isObj(row.response) || (typeof row.raw_response === 'string' && row.raw_response !== '');
}

function responseError(resp: Obj): CallError | null {
  const err = resp.error;
  const title = asStr(resp.title) || (isObj(err) ? asStr(err.type) : err ? asStr(resp.type) : '');
  const detail = asStr(resp.detail) || (isObj(err) ? asStr(err.message) : asStr(err));
  return title || detail ? { title, detail } : null;
}

function responseBlocks(resp: Obj): Block[] {
  const blocks: Block[] = [];
  const reasoning = asStr(resp.reasoning);
  if (reasoning) blocks.push({ type: 'thinking', text: reasoning });
  blocks.push(...contentToBlocks(resp.content));
  blocks.push(...toolCallsToBlocks(resp.tool_calls, blocks.filter((b) => b.type === 'tool_use').length));
  return blocks;
}

export function canonicalizeRow(row: Obj, index: number): CanonicalCall {
  const entry = normalizeEntry(row);
  const resp = asObj(entry.response);
  const raw = asStr(row.raw_response);
  const model = modelOf(row.request, resp, asStr(row.url));
  const usage = unifyUsage(resp.usage);
  const status = asNum(resp.status) || asNum(row.http_status);
  const blocks = responseBlocks(resp);
  const parsedNothing = raw !== '' && Object.keys(resp).every((k) => k === 'status');
  return {
    seq: asNum(row.seq) || index + 1,
    timestamp: typeof row.timestamp === 'string' ? row.timestamp : typeof row.timestamp === 'number' ? new Date(row.timestamp * 1000).toISOString() : null,
    url: asStr(row.url),
    latencyMs: asNum(row.latency_ms),
    status,
    model,
    provider: detectProvider(asStr(row.url), resp, model),
    requestMessages: requestMessages(row.request),
    response: { role: 'assistant', blocks },
    stopReason: (asStr(resp.stop_reason) || asStr(resp.finish_reason)).trim(),
    usage,
    costUsd: costUsd(defaultPriceTable(), model, callTokens(usage)),
    error: responseError(resp),
    unparsed: parsedNothing ? raw.slice(0, 4000) : null,
    retried: false,
    attempt: asNum(row.attempt),
  };
}
