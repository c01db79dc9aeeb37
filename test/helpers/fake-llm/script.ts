// What a scripted fake LLM answers, one entry per HTTP call it receives.

export type FakeFormat = 'openai-chat' | 'openai-responses' | 'anthropic' | 'gemini';

export interface FakeToolCall {
  name: string;
  args: Record<string, unknown>;
  /** Defaults to a per-server counter (call_1, call_2, …). */
  id?: string;
}

export interface FakeUsage {
  /** Input tokens not read from cache. */
  input: number;
  output: number;
  /** Input tokens read from the provider's prompt cache. */
  cacheRead?: number;
  /** Input tokens written to the prompt cache (only Anthropic's format reports them). */
  cacheWrite?: number;
}

/** A normal model answer: text, tool calls, or both. */
export interface FakeReply {
  text?: string;
  /** Reasoning/thinking text, emitted in the format's native reasoning shape where it has one. */
  reasoning?: string;
  toolCalls?: FakeToolCall[];
  usage?: FakeUsage;
  /** Model stopped because it hit max tokens. */
  truncated?: boolean;
  /** Wait this long before answering (tests of timeouts and mid-run messages). */
  delayMs?: number;
  /**
   * Break the connection: 'before-body' after sending the 200 headers, 'mid-stream' after half
   * of a streaming answer's events (a provider or network dropping out).
   */
  drop?: 'before-body' | 'mid-stream';
  /** Answer 200 with this body as it is (content-type application/json): a provider whose answer is not what the API says. */
  raw?: string;
}

/** An HTTP failure, in the format's own error-body shape. */
export interface FakeFailure {
  status: number;
  /** Seconds, sent as the `retry-after` header. */
  retryAfter?: number;
  message?: string;
  delayMs?: number;
}

export type FakeScriptItem = FakeReply | FakeFailure;

export function isFailure(item: FakeScriptItem): item is FakeFailure {
  return typeof (item as FakeFailure).status === 'number';
}

/** Shorthands that make scripts read well. */
export const say = (text: string, extra: Omit<FakeReply, 'text'> = {}): FakeReply => ({ text, ...extra });
export const call = (name: string, args: Record<string, unknown>, extra: Omit<FakeReply, 'toolCalls'> = {}): FakeReply => ({
  toolCalls: [{ name, args }],
  ...extra,
});
export const fail = (status: number, retryAfter?: number): FakeFailure => ({ status, retryAfter });
