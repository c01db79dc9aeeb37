// `{{event_id}}` / `{{event_id.key.key}}` placeholders in scenario argument values
// (docs/judge.md, "Placeholders"). Only a value that is entirely one placeholder (after trimming) is
// resolved; text that merely contains one is left alone, as in the reference.

export interface PlaceholderRef {
  eventId: string;
  keys: string[];
}

const WHOLE_PLACEHOLDER = /^\{\{(.+?)\}\}$/s;

export function parsePlaceholder(value: unknown): PlaceholderRef | null {
  if (typeof value !== 'string') return null;
  const m = WHOLE_PLACEHOLDER.exec(value.trim());
  if (!m) return null;
  const [eventId, ...keys] = m[1]!.trim().split('.');
  return eventId ? { eventId, keys } : null;
}

/** What a lookup knows about an event's return value. */
export type ReturnLookup = (eventId: string) => { found: true; value: unknown } | { found: false };

const isDict = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Resolves one value. An unknown event id or a key path that does not exist keeps the
 * original placeholder string, which then fails any equality check.
 */
export function resolvePlaceholder(value: unknown, lookup: ReturnLookup): { resolved: boolean; value: unknown } {
  const ref = parsePlaceholder(value);
  if (!ref) return { resolved: false, value };
  const hit = lookup(ref.eventId);
  if (!hit.found) return { resolved: false, value };
  let cur: unknown = hit.value;
  for (const k of ref.keys) {
    if (!isDict(cur) || !(k in cur)) return { resolved: false, value };
    cur = cur[k];
  }
  return { resolved: true, value: cur };
}

/** Resolves every top-level string argument; returns a new object. */
export function resolveArgs(args: Record<string, unknown>, lookup: ReturnLookup): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) out[k] = resolvePlaceholder(v, lookup).value;
  return out;
}
