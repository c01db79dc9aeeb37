// Keys must never reach a trace, log line or error message. A redactor is built per model
// from the secrets that model uses, so nothing global has to be registered.

export type Redactor = (text: string) => string;

const MASK = '[REDACTED]';

export function makeRedactor(secrets: Array<string | undefined>): Redactor {
  // Longest first, so a key that contains another is masked whole.
  const values = secrets.filter((s): s is string => !!s && s.length >= 4).sort((a, b) => b.length - a.length);
  if (values.length === 0) return (text) => text;
  return (text) => values.reduce((out, s) => (out.includes(s) ? out.split(s).join(MASK) : out), text);
}
