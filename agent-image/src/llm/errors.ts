// Typed provider failures. Whatever goes wrong talking to the LLM ends up as a ProviderError
// whose message is safe to print (keys redacted) and whose reason says what to do about it.
import { APICallError } from 'ai';
import type { Redactor } from './redact.js';

export type ProviderFailureReason =
  | 'auth' // 401/403: wrong or missing key; never retried
  | 'rate_limit' // 429 after retries
  | 'server' // 5xx after retries
  | 'network' // connection failure or timeout after retries
  | 'context_length' // the conversation no longer fits the model's window
  | 'bad_request' // other 4xx
  | 'bad_response'; // the provider answered something the SDK could not use

export class ProviderError extends Error {
  override name = 'ProviderError';
  /** The result.json error kind (contract ErrorKind). */
  readonly kind = 'provider_error' as const;
  constructor(
    message: string,
    readonly reason: ProviderFailureReason,
    /** HTTP status of the last attempt, 0 when there was no HTTP answer. */
    readonly status: number,
    readonly provider: string,
  ) {
    super(message);
  }
}

const CONTEXT_PATTERNS = [
  /context[ _-]?(length|window)/i,
  /maximum context/i,
  /prompt is too long/i,
  /input is too long/i,
  /too many (input )?tokens/i,
  /exceeds? the (maximum|max) (number of )?tokens/i,
];

export function reasonForStatus(status: number, detail: string): ProviderFailureReason {
  if (status === 401 || status === 403) return 'auth';
  if (status === 429) return 'rate_limit';
  if (status >= 500) return 'server';
  if (status === 0) return 'network';
  if (CONTEXT_PATTERNS.some((p) => p.test(detail))) return 'context_length';
  return 'bad_request';
}

/** The provider's own error message from an error body of any of the supported formats. */
export function errorDetail(body: string | undefined): string {
  if (!body) return '';
  try {
    const parsed = JSON.parse(body) as any;
    const err = Array.isArray(parsed) ? parsed[0]?.error : parsed?.error;
    if (typeof err === 'string') return err;
    if (err && typeof err.message === 'string') return err.message;
    if (typeof parsed?.message === 'string') return parsed.message;
  } catch {
    /* not JSON */
  }
  return body.slice(0, 300);
}

/** Turns anything thrown by an AI SDK call into a ProviderError with a redacted message. */
export function toProviderError(err: unknown, provider: string, redact: Redactor): ProviderError {
  if (err instanceof ProviderError) return err;
  const cause = (err as { cause?: unknown })?.cause;
  if (cause instanceof ProviderError) return cause;
  if (APICallError.isInstance(err)) {
    const status = err.statusCode ?? 0;
    const detail = errorDetail(err.responseBody) || err.message;
    const reason = reasonForStatus(status, detail);
    return new ProviderError(redact(`${provider} API error ${status || 'without HTTP status'}: ${detail}`), reason, status, provider);
  }
  const message = err instanceof Error ? err.message : String(err);
  const name = err instanceof Error ? err.name : '';
  const reason: ProviderFailureReason = /abort|timeout/i.test(name) ? 'network' : 'bad_response';
  return new ProviderError(redact(`${provider} call failed: ${name ? `${name}: ` : ''}${message}`), reason, 0, provider);
}
