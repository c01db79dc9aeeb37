// Secret values never leave the process in clear text: every text that is logged, printed
// or written to an output file passes through redact(). Values are registered by name
// (the variable holding the key) when the configuration is resolved.

const secrets = new Set<string>();

/** Registers a secret value; short values are ignored to avoid redacting common words. */
export function registerSecret(value: string | undefined | null): void {
  if (value && value.length >= 6) secrets.add(value);
}

export function clearSecrets(): void {
  secrets.clear();
}

export function redact(text: string): string {
  let out = text;
  for (const s of secrets) {
    if (out.includes(s)) out = out.split(s).join('***');
  }
  return out;
}

/**
 * Redacts file content. Bytes without any secret are returned as they are (no decode and
 * re-encode of a large artifact); the rest is redacted as text.
 */
export function redactBytes(bytes: Buffer): Buffer {
  for (const s of secrets) if (bytes.includes(s)) return Buffer.from(redact(bytes.toString('utf8')));
  return bytes;
}

/** Deep-redacts a JSON-like value (strings only). */
export function redactValue<T>(value: T): T {
  if (secrets.size === 0) return value;
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactValue(v)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactValue(v);
    return out as T;
  }
  return value;
}
