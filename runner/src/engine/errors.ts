import type { ErrorKind } from '../../../agent-image/src/contract/result.js';

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

/** An engine API failure as an EngineError: unreachable engines by their socket error, the rest with the engine's message. */
export function wrapEngineError(e: unknown, what: string, kind: ConstructorParameters<typeof EngineError>[0] = 'engine_unavailable'): EngineError {
  if (e instanceof EngineError) return e;
  const err = e as { code?: string; message?: string; json?: { message?: string } };
  if (err.code === 'ECONNREFUSED' || err.code === 'ENOENT' || err.code === 'EACCES') {
    return new EngineError('engine_unavailable', `container engine unreachable while ${what} (${err.code})`);
  }
  return new EngineError(kind, `${what}: ${err.json?.message ?? err.message ?? String(e)}`);
}
