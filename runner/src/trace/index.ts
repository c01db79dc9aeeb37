// trace.jsonl → canonical LLM calls. Public surface of the trace parser.
import { traceFromRows } from './calls.js';
import type { CanonicalCall } from './canonical.js';
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
export { commonPrefix, messageKey } from './message-key.js';
export { toolStepsOfCalls, type ToolStep } from './tool-steps.js';
export { traceOfTraffic } from './from-traffic.js';
export { traceFromRows } from './calls.js';

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
