// A scenario run that failed outside the daemon, with the kind its result records.
import type { ErrorKind } from '@gaia2/contract';

export class RunFailure extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
  ) {
    super(message);
  }
}
