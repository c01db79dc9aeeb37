// Python `json.dumps` emulation. The reference prints every app output and event line with
// Python's json module, and byte-level fidelity matters (golden transcripts, other tools that
// diff the logs). JS numbers do not know int from float, so a float whose value is integral
// is carried as a PyFloat (py-float.ts); parsePyJson (pyjson-parse.ts) keeps literals written with '.' or an exponent as
// PyFloat so that a seeded `"price": 950` prints 950 and `"timestamp": 1728974530.0` keeps
// its ".0". Plain JS numbers print as ints when integral and as Python floats otherwise.
import { closeSync, openSync, writeSync } from 'node:fs';
import type { EventLine } from './events.js';
import { PyFloat, num, pyFloatRepr } from './py-float.js';
import { parsePyJson } from './pyjson-parse.js';

export { PyFloat, isPyNumber, num, pyFloat, pyFloatRepr } from './py-float.js';
export { DeferredJson, PyJsonError, parsePyJson, undeferred, whenAllParsed, type PyJsonParseOptions } from './pyjson-parse.js';

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
