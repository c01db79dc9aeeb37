// Extra request fields (the reference judge's `extra_body`, e.g. {"reasoning_effort": "low"} for
// the calibrated gpt-oss-120b judge): a JSON object whose keys are merged, as they are, into the
// top level of every JSON request body the provider SDK sends. The merge sits before the
// tracing fetch, so traces show the body that was really sent.
import { LlmConfigError } from './config.js';

export type ExtraBody = Record<string, unknown>;

/** The object a setting holds (unset or blank: none); anything but a JSON object is an error naming `where`. */
export function parseExtraBody(raw: string | undefined, where: string): ExtraBody | undefined {
  const text = (raw ?? '').trim();
  if (text === '') return undefined;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new LlmConfigError(`${where} must be a JSON object (${(e as Error).message})`);
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new LlmConfigError(`${where} must be a JSON object (got ${text.slice(0, 80)})`);
  return Object.keys(v).length ? (v as ExtraBody) : undefined;
}

/** A fetch that adds `extra` to each JSON-object request body, replacing keys of the same name. */
export function withExtraBody(fetch: typeof globalThis.fetch, extra: ExtraBody): typeof globalThis.fetch {
  return (input, init) => {
    const body = init?.body;
    if (typeof body !== 'string') return fetch(input, init);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return fetch(input, init);
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return fetch(input, init);
    return fetch(input, { ...init, body: JSON.stringify({ ...(parsed as object), ...extra }) });
  };
}
