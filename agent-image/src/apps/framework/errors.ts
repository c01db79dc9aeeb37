// The two ways a command fails, as the reference does: a handled error (message on stderr,
// exit 1) and a Click usage error (usage header + "Error: …", exit 2).

/** Handled application error: the message alone on stderr, exit 1, nothing logged or saved. */
export class AppError extends Error {
  override name = 'AppError';
}

/** Click UsageError; `usage` says whether the "Usage:/Try" header is printed for a command or the group. */
export class ClickUsageError extends Error {
  override name = 'ClickUsageError';
}

/** Click BadParameter: rendered "Invalid value for '<flag>': msg" or, without a flag, "Invalid value: msg". */
export class BadParameter extends Error {
  override name = 'BadParameter';
}

export const fail = (message: string): never => {
  throw new AppError(message);
};
