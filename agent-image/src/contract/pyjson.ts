// Python `json.dumps` emulation. The reference prints every app output and event line with
// Python's json module, and byte-level fidelity matters (golden transcripts, other tools that
// diff the logs). JS numbers do not know int from float, so a float whose value is integral
// is carried as a PyFloat; parsePyJson keeps literals written with '.' or an exponent as
// PyFloat so that a seeded `"price": 950` prints 950 and `"timestamp": 1728974530.0` keeps
// its ".0". Plain JS numbers print as ints when integral and as Python floats otherwise.
import { closeSync, openSync, writeSync } from 'node:fs';
import type { EventLine } from './events.js';

/** A Python float. valueOf/toJSON let it flow through arithmetic and JSON.stringify. */
export class PyFloat {
  constructor(readonly value: number) {}
  valueOf(): number {
    return this.value;
  }
  toJSON(): number {
    return this.value;
  }
  toString(): string {
    return pyFloatRepr(this.value);
  }
}

export const pyFloat = (n: number): PyFloat => new PyFloat(n);

/**
 * A value already written in compact `json.dumps` form (no indent): pyDumps copies the text
 * instead of walking the value again, and `value` parses it back once, when first asked. A
 * command's logged return value is kept this way: the text is written into its events line as
 * is, and being a string it is already a frozen copy, whatever later commands do to the objects
 * it was made from (docs/daemon.md, "App state").
 */
export class PyJsonText {
  private parsed: { v: unknown } | null = null;
  constructor(readonly text: string) {}
  get value(): unknown {
    this.parsed ??= { v: parsePyJson(this.text) };
    return this.parsed.v;
  }
}

/** The value behind a PyJsonText (parsed once), anything else as it is. */
export const pyJsonValue = (v: unknown): unknown => (v instanceof PyJsonText ? v.value : v);

/**
 * Compact `json.dumps` text from the `indent=2` text of the same value, without walking the
 * value again. Sound because the text is ensure_ascii: a string literal never holds a raw
 * newline, so every newline is layout ("," + newline + indent → ", "; after an opening or
 * before a closing bracket → nothing), and ": " is the same in both forms.
 */
export const compactFromIndented = (indented: string): string => indented.replace(/,\n */g, ', ').replace(/\n */g, '');

/** The number behind an int, a float or a PyFloat; NaN for anything else. */
export function num(v: unknown): number {
  if (typeof v === 'number') return v;
  if (v instanceof PyFloat) return v.value;
  return Number.NaN;
}

export const isPyNumber = (v: unknown): v is number | PyFloat => typeof v === 'number' || v instanceof PyFloat;

/** Python `repr(float)`: shortest round-trip digits, ".0" on integral values, e-notation outside 1e-4..1e16. */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const abs = Math.abs(x);
  if (abs >= 1e-4 && abs < 1e16) {
    // Where both print positional digits, JS's shortest round-trip digits are Python's; only
    // the ".0" of integral values differs (the common case: timestamps and prices).
    const s = String(x);
    return Number.isInteger(x) ? s + '.0' : s;
  }
  const [mant, expStr] = x.toExponential().split('e') as [string, string];
  const exp = Number(expStr);
  const neg = mant.startsWith('-');
  const digits = mant.replace('-', '').replace('.', '');
  const sign = neg ? '-' : '';
  if (exp < -4 || exp >= 16) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const e = Math.abs(exp) < 10 ? `0${Math.abs(exp)}` : String(Math.abs(exp));
    return `${sign}${m}e${exp < 0 ? '-' : '+'}${e}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  if (digits.length <= exp + 1) return `${sign}${digits}${'0'.repeat(exp + 1 - digits.length)}.0`;
  return `${sign}${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
}

function pyNumber(n: number): string {
  if (Number.isInteger(n) && !Object.is(n, -0)) return String(n).includes('e') ? BigInt(n).toString() : String(n);
  return pyFloatRepr(n);
}

// Strings needing no escape at all (printable ASCII without '"' and '\\'): most of them.
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
const NON_ASCII = /[\u007f-\uffff]/g;
const uEscape = (c: string): string => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0');

/**
 * JSON string literal with ensure_ascii: everything outside ' '..'~' escaped, per UTF-16 unit.
 * JSON.stringify already escapes quotes, backslashes and control characters as Python does
 * (\n \r \t \b \f, else \u00xx) and lone surrogates as \udxxx; what remains is escaping
 * DEL and everything above it.
 */
export function pyString(s: string): string {
  if (PLAIN.test(s)) return '"' + s + '"';
  return JSON.stringify(s).replace(NON_ASCII, uEscape);
}

export interface PyDumpsOptions {
  /** Pretty-print with this many spaces (Python then uses "," + newline and ": "). */
  indent?: number;
}

/** Python `json.dumps(value, indent=…)` with default ensure_ascii and separators. */
export function pyDumps(value: unknown, opts: PyDumpsOptions = {}): string {
  return dump(value, opts, Infinity, () => {});
}

/**
 * pyDumps in pieces of about `chunk` characters, each handed to `emit` as it is made (the
 * last one returned instead): a large state is written to its file with no string of the
 * whole text in memory (the daemon's peak when it persists a universe of real size).
 */
export const pyDumpsChunked = (value: unknown, opts: PyDumpsOptions, chunk: number, emit: (text: string) => void): string =>
  dump(value, opts, chunk, emit);

function dump(value: unknown, opts: PyDumpsOptions, chunk: number, emit: (text: string) => void): string {
  const indent = opts.indent;
  // One string built by appending (V8 joins the pieces once, at the end): a large answer (a
  // search over thousands of emails) costs what its text costs, with no per-level arrays.
  let out = '';
  const flush = (): void => {
    if (out.length < chunk) return;
    emit(out);
    out = '';
  };
  // Per depth: what comes before an item (after the first) and before the closing bracket.
  const seps: string[] = [];
  const opens: string[] = [];
  const closes: string[] = [];
  const sepAt = (depth: number): string => {
    if (seps[depth] === undefined) {
      const pad = indent === undefined ? '' : '\n' + ' '.repeat(indent * (depth + 1));
      opens[depth] = pad;
      seps[depth] = indent === undefined ? ', ' : ',' + pad;
      closes[depth] = indent === undefined ? '' : '\n' + ' '.repeat(indent * depth);
    }
    return seps[depth]!;
  };
  const walk = (v: unknown, depth: number): void => {
    if (v === null || v === undefined) out += 'null';
    else if (v === true) out += 'true';
    else if (v === false) out += 'false';
    else if (typeof v === 'number') out += pyNumber(v);
    else if (typeof v === 'string') out += pyString(v);
    else if (v instanceof PyFloat) out += pyFloatRepr(v.value);
    else if (v instanceof PyJsonText) {
      if (indent === undefined) out += v.text;
      else walk(v.value, depth);
    }
    else if (typeof v === 'bigint') out += v.toString();
    else if (Array.isArray(v)) {
      if (v.length === 0) {
        out += '[]';
        return;
      }
      const sep = sepAt(depth);
      out += '[' + opens[depth];
      for (let i = 0; i < v.length; i++) {
        if (i > 0) out += sep;
        walk(v[i], depth + 1);
        flush();
      }
      out += closes[depth] + ']';
    } else if (v instanceof Map) {
      if (v.size === 0) {
        out += '{}';
        return;
      }
      const sep = sepAt(depth);
      out += '{' + opens[depth];
      let first = true;
      for (const [k, x] of v) {
        if (!first) out += sep;
        first = false;
        out += pyString(String(k)) + ': ';
        walk(x, depth + 1);
        flush();
      }
      out += closes[depth] + '}';
    } else if (typeof v === 'object') {
      const sep = sepAt(depth);
      let first = true;
      for (const k in v) {
        if (!Object.prototype.hasOwnProperty.call(v, k)) continue;
        const x = (v as Record<string, unknown>)[k];
        if (x === undefined) continue;
        out += first ? '{' + opens[depth] : sep;
        first = false;
        out += pyString(k) + ': ';
        walk(x, depth + 1);
        flush();
      }
      out += first ? '{}' : closes[depth] + '}';
    } else out += pyString(String(v));
  };
  walk(value, 0);
  return out;
}

/** Error thrown by parsePyJson, with a Python-json-like message and the char offset. */
export class PyJsonError extends Error {
  override name = 'PyJsonError';
  constructor(
    readonly msg: string,
    readonly text: string,
    readonly pos: number,
  ) {
    const before = text.slice(0, pos);
    const line = before.split('\n').length;
    const col = pos - (before.lastIndexOf('\n') + 1) + 1;
    super(`${msg}: line ${line} column ${col} (char ${pos})`);
  }
}

// The characters a JSON string cannot hold as they are; a number literal and whitespace (sticky).
const SPECIAL = /["\\\u0000-\u001f]/g;
const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y;
const WHITESPACE = /[ \t\n\r]*/y;
const CONTROL = /[\u0000-\u001f]/g;
// V8 makes a slice (a view holding its parent) of a substring this long or longer.
const SLICE_MIN = 13;
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/**
 * JSON parser that keeps float literals as PyFloat (ints stay numbers). Accepts what Python's
 * json.loads accepts (NaN, Infinity, -Infinity included); error messages follow Python's.
 */
export function parsePyJson(text: string): unknown {
  let i = 0;
  // Where the next backslash and the next control character are (-1: none left), found with
  // one native search each time the parse passes the last one found: most strings hold
  // neither, and are then one indexOf and one slice.
  let backslash = -2;
  let control = -2;
  const plainUntil = (end: number): boolean => {
    if (backslash !== -1 && backslash < i) backslash = text.indexOf('\\', i);
    if (backslash !== -1 && backslash < end) return false;
    if (control !== -1 && control < i) {
      CONTROL.lastIndex = i;
      control = CONTROL.exec(text)?.index ?? -1;
    }
    return control === -1 || control >= end;
  };
  const ws = (): void => {
    const c = text.charCodeAt(i);
    // fast exit: most values follow a delimiter directly or after one space
    if (c !== 32 && c !== 10 && c !== 13 && c !== 9) return;
    WHITESPACE.lastIndex = i;
    WHITESPACE.test(text);
    i = WHITESPACE.lastIndex;
  };
  const fail = (msg: string, at = i): never => {
    throw new PyJsonError(msg, text, at);
  };
  const value = (): unknown => {
    ws();
    const c = text[i];
    if (c === '{') return object();
    if (c === '[') return array();
    if (c === '"') return string();
    if (text.startsWith('null', i)) return (i += 4), null;
    if (text.startsWith('true', i)) return (i += 4), true;
    if (text.startsWith('false', i)) return (i += 5), false;
    if (text.startsWith('NaN', i)) return (i += 3), new PyFloat(Number.NaN);
    if (text.startsWith('Infinity', i)) return (i += 8), new PyFloat(Infinity);
    if (text.startsWith('-Infinity', i)) return (i += 9), new PyFloat(-Infinity);
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (!m) return fail('Expecting value');
    i += m[0].length;
    if (m[1] !== undefined || m[2] !== undefined) return new PyFloat(Number(m[0]));
    const n = Number(m[0]);
    return Number.isSafeInteger(n) ? n : BigInt(m[0]);
  };
  const string = (): string => {
    const start = i;
    i++;
    const quote = text.indexOf('"', i);
    if (quote >= 0 && plainUntil(quote)) {
      i = quote + 1;
      return copyOf(start, i, false);
    }
    // Escapes and control characters are checked here, with Python's messages; the string
    // itself is then decoded by copyOf (JSON's escapes are Python's).
    for (;;) {
      SPECIAL.lastIndex = i;
      const m = SPECIAL.exec(text);
      if (!m) {
        i = text.length;
        return fail('Unterminated string starting at', start);
      }
      i = m.index;
      const c = text[i]!;
      if (c === '"') {
        i++;
        return copyOf(start, i, true);
      }
      if (c !== '\\') return fail('Invalid control character at', i);
      const e = text[i + 1];
      if (e !== undefined && e in ESCAPES) i += 2;
      else if (e === 'u') {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('Invalid \\uXXXX escape', i + 1);
        i += 6;
      } else fail('Invalid \\escape', i);
    }
  };
  // The string literal text[from, to) (quotes included, already checked). A slice of `text`
  // (V8 slices strings of 13 characters or more) would keep the whole scenario text alive as
  // long as the daemon's states hold one of its strings: JSON.parse of the literal is a copy.
  const copyOf = (from: number, to: number, escaped: boolean): string =>
    !escaped && to - from < SLICE_MIN + 2 ? text.slice(from + 1, to - 1) : (JSON.parse(text.slice(from, to)) as string);
  const array = (): unknown[] => {
    i++;
    const out: unknown[] = [];
    ws();
    if (text[i] === ']') return i++, out;
    for (;;) {
      out.push(value());
      ws();
      if (text[i] === ',') {
        i++;
        continue;
      }
      // A copy of exact length: pushing reserves room for 16 or more items, which in a
      // universe's thousands of short arrays (recipients, tags) is most of their memory.
      if (text[i] === ']') return i++, out.slice();
      fail("Expecting ',' delimiter");
    }
  };
  const object = (): Record<string, unknown> => {
    i++;
    const out: Record<string, unknown> = {};
    ws();
    if (text[i] === '}') return i++, out;
    for (;;) {
      ws();
      if (text[i] !== '"') fail('Expecting property name enclosed in double quotes');
      const k = string();
      ws();
      if (text[i] !== ':') fail("Expecting ':' delimiter");
      i++;
      const v = value();
      // A plain assignment keeps objects in V8's fast mode; only "__proto__" needs defining.
      if (k === '__proto__') Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
      else out[k] = v;
      ws();
      if (text[i] === ',') {
        i++;
        ws();
        continue;
      }
      if (text[i] === '}') return i++, out;
      fail("Expecting ',' delimiter");
    }
  };
  const v = value();
  ws();
  if (i < text.length) fail('Extra data');
  // V8 keeps the subject of the last successful match (RegExp.input): a match on an empty
  // string lets a large scenario text go once the caller drops it.
  WHITESPACE.lastIndex = 0;
  WHITESPACE.test('');
  return v;
}

const EVENT_KEYS = ['t', 'app', 'fn', 'args', 'w', 'ret', 'event_id', 'sim_t', 'wall_t'] as const;

/** One events.jsonl line (no newline) in the reference form: fixed key order, `t` always a float. */
export function formatEventLine(line: EventLine): string {
  const ordered: Record<string, unknown> = {};
  for (const k of EVENT_KEYS) {
    const v = line[k];
    const optional = k === 'event_id' || k === 'sim_t' || k === 'wall_t';
    if (optional && (v === undefined || v === null)) continue;
    ordered[k] = k === 't' || k === 'wall_t' ? new PyFloat(num(v)) : (v ?? null);
  }
  return pyDumps(ordered);
}

/** Appends lines to events.jsonl in a single write (O_APPEND), so a batch is never torn apart. */
export function appendEventLines(file: string, lines: readonly EventLine[]): void {
  if (lines.length === 0) return;
  const text = lines.map((l) => formatEventLine(l) + '\n').join('');
  const fd = openSync(file, 'a');
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
}
