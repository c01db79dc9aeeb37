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
