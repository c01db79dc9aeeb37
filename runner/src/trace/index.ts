// trace.jsonl → canonical LLM calls. Public surface of the trace parser.
import { canonicalizeRow, isRenderableRow, type CanonicalCall } from './canonical.js';
import { isObj } from './json-util.js';

export type { Block, Message } from './blocks.js';
export type { CanonicalCall, CallError } from './canonical.js';
export type { Usage } from './usage.js';
export { blocksText } from './blocks.js';
export { canonicalizeRow, isRenderableRow } from './canonical.js';
export { normalizeEntry, parseRawResponse } from './response.js';
export { parseSseEvents, looksLikeSse } from './sse.js';
export { callTokens, totalInput, unifyUsage } from './usage.js';
export { detectProvider, modelOfRequest } from './provider.js';

export interface ParsedTrace {
  calls: CanonicalCall[];
  /** Lines that were not JSON objects (a torn last line, garbage): shown raw, never fatal. */
  badLines: Array<{ line: number; text: string }>;
  /** Rows that parsed but have nothing to render (Hermes summaries, npm downloads). */
  ignoredRows: number;
}

export function parseTraceJsonl(text: string): ParsedTrace {
  const rows: Record<string, unknown>[] = [];
  const badLines: ParsedTrace['badLines'] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (!line) continue;
    let row: unknown;
    try {
      row = JSON.parse(line);
    } catch {
      badLines.push({ line: i + 1, text: line.slice(0, 2000) });
      continue;
    }
    if (!isObj(row)) badLines.push({ line: i + 1, text: line.slice(0, 2000) });
    else rows.push(row);
  }
  const calls = traceFromRows(rows);
  return { calls, badLines, ignoredRows: rows.length - calls.length };
}

/** Calls from rows already parsed (trace lines grouped by a caller), as parseTraceJsonl reads them. */
export function traceFromRows(rows: readonly Record<string, unknown>[]): CanonicalCall[] {
  const calls: CanonicalCall[] = [];
  for (const row of rows) if (isRenderableRow(row)) calls.push(canonicalizeRow(row, calls.length));
  markRetries(calls);
  return calls;
}

/** A failed attempt followed by a call with the same request is a retry, not a new step. */
function markRetries(calls: CanonicalCall[]): void {
  for (let i = 0; i + 1 < calls.length; i++) {
    const a = calls[i]!;
    const b = calls[i + 1]!;
    const failed = (a.status === 0 && a.error !== null) || a.status === 429 || a.status >= 500;
    if (b.attempt > 1 || (failed && a.requestMessages.length === b.requestMessages.length)) a.retried = true;
  }
}
