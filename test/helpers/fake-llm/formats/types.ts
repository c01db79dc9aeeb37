import type { FakeReply } from '../script.js';

/** A tool call with its id already assigned. */
export interface ResolvedToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

export interface RenderContext {
  model: string;
  reply: FakeReply;
  toolCalls: ResolvedToolCall[];
  /** Unique per response, for ids. */
  n: number;
  usage: { input: number; output: number; cacheRead?: number; cacheWrite?: number };
}

/** One wire format: which paths it serves and how it renders replies and errors. */
export interface WireFormat {
  /** Does this request path belong to the format? */
  accepts(path: string): boolean;
  isStreaming(path: string, body: unknown): boolean;
  /** Model name as the request states it (Gemini puts it in the path). */
  model(path: string, body: unknown): string;
  json(ctx: RenderContext): unknown;
  /** SSE events, each already framed (`event:`/`data:` lines and the blank line). */
  sse(ctx: RenderContext): string[];
  errorBody(status: number, message: string): unknown;
}

export const sseData = (data: unknown, event?: string): string =>
  `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`;

export const bodyField = (body: unknown, key: string): unknown =>
  body && typeof body === 'object' ? (body as Record<string, unknown>)[key] : undefined;
