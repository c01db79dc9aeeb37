// Small Python behaviours the apps must mirror: repr() of strings (in error texts) and str()
// of values (how the reference daemon turns ARE args into CLI option values).
import { PyFloat, pyDumps, pyFloatRepr } from '../../contract/pyjson.js';

/** Python repr() of a str. */
export function pyRepr(s: string): string {
  const q = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '\\') out += '\\\\';
    else if (ch === q) out += '\\' + q;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || c === 0x7f) out += '\\x' + c.toString(16).padStart(2, '0');
    else out += ch;
  }
  return q + out + q;
}

/** Python str() of a JSON-ish value; lists and dicts become json.dumps text (as build_cli_cmd does). */
export function pyStr(v: unknown): string {
  if (v === null || v === undefined) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (v instanceof PyFloat) return pyFloatRepr(v.value);
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : pyFloatRepr(v);
  if (typeof v === 'string') return v;
  return pyDumps(v);
}

/** Python's str.lower() is close enough to toLowerCase for the texts the apps compare. */
export const pyLower = (s: string): string => s.toLowerCase();
