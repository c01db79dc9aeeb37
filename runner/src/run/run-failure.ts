// A scenario run that failed outside the daemon, with the kind its result records.
import type { ErrorKind } from '../../../agent-image/src/contract/index.js';

export class RunFailure extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
  ) {
    super(message);
  }
}
