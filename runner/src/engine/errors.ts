import type { ErrorKind } from '@gaia2/contract/result';
import { isOutageError } from './outage/classify.js';

/** An engine failure with the error kind the result will carry and a hint for the user. */
export class EngineError extends Error {
  override name = 'EngineError';
  constructor(
    readonly kind: ErrorKind,
    message: string,
  ) {
    super(message);
  }
}

export function isEngineError(e: unknown): e is EngineError {
  return e instanceof EngineError;
}

/**
 * The message of an engine's HTTP error: dockerode attaches the body as `json`, parsed when it
 * was JSON, else as a string or the raw bytes.
 */
export function engineErrorMessage(e: unknown): string {
  const err = e as { json?: { message?: string } | string | Buffer | null; message?: string };
  const j = err.json;
  const body = typeof j === 'string' ? j : Buffer.isBuffer(j) ? j.toString('utf8') : j?.message;
  return body?.trim() || err.message || String(e);
}

/** An engine API failure as an EngineError: unreachable engines (engine_unavailable) by their socket error, the rest with the engine's message. */
export function wrapEngineError(e: unknown, what: string, kind: ConstructorParameters<typeof EngineError>[0] = 'engine_unavailable'): EngineError {
  if (e instanceof EngineError) return e;
  const err = e as { code?: string };
  // An engine away (its socket gone, refused, or the connection cut mid-call: docs/reliability.md)
  // or one this user may not reach: either way not the run's fault, and the orchestrator waits
  // out the former.
  if (isOutageError(e) || err.code === 'EACCES') {
    // The code, and the client's words when they add to it ("ECONNRESET: socket hang up").
    const said = engineErrorMessage(e);
    const why = !err.code ? said : said.includes(err.code) ? err.code : `${err.code}: ${said}`;
    return new EngineError('engine_unavailable', `container engine unreachable while ${what} (${why})`);
  }
  return new EngineError(kind, `${what}: ${engineErrorMessage(e)}`);
}
