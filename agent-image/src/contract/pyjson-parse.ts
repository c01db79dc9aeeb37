// Python `json.loads` for the daemon and the runner: a JSON parser that keeps float literals
// (a '.' or an exponent) as PyFloat so that they print back as Python floats (ints stay JS
// numbers, beyond 2^53 BigInts), accepts NaN, Infinity and -Infinity, and fails with Python's
// messages. It is the largest part of a world's boot on a universe of real size (issue Q), so
// it is written for speed: char codes instead of regular expressions on the hot paths, object
// keys recognised from the object parsed before at the same depth (a universe is thousands of
// objects of a few shapes), array items gathered on one shared stack, and strings copied out
// of the text rather than sliced (see `copyOf`); the values of chosen keys (the apps' states of
// a scenario) can be left unparsed until they are read (DeferredJson).
import { PyFloat } from './py-float.js';

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

// The characters a JSON string cannot hold as they are (global: searched from an index).
const SPECIAL = /["\\\u0000-\u001f]/g;
const CONTROL = /[\u0000-\u001f]/g;
const HEX4 = /^[0-9a-fA-F]{4}$/;
const EMPTY = /(?:)/;
const WHITESPACE = /[ \t\n\r]*/y;
// V8 makes a slice (a view holding its parent) of a substring this long or longer.
const SLICE_MIN = 13;
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
// Char codes.
const QUOTE = 34;
const COMMA = 44;
const COLON = 58;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const MINUS = 45;
const DOT = 46;
const ZERO = 48;
const NINE = 57;
const isDigit = (c: number): boolean => c >= ZERO && c <= NINE;
// An int literal of at most this many digits is exact in a double and read digit by digit.
const EXACT_DIGITS = 15;

export interface PyJsonParseOptions {
  /**
   * Values not parsed now: an object or array under one of `keys` in an object at `depth`
   * (the top value is at depth 0, a value in it at 1: objects and arrays both count) is
   * skipped (its strings and
   * brackets matched, nothing made) and becomes a DeferredJson, parsed when first read. The
   * daemon defers the apps' states of a scenario, `apps[i].app_state` (docs/daemon.md, "Boot").
   */
  defer?: { keys: ReadonlySet<string>; depth: number };
}

/**
 * JSON text → value, as Python's json.loads reads it (see the file's head). Its strings are
 * copies: none keeps the text alive once the caller drops it (a DeferredJson keeps it until
 * it is read).
 */
export function parsePyJson(text: string, opts: PyJsonParseOptions = {}): unknown {
  return parseRange(text, 0, text.length, opts.defer ?? null);
}

/**
 * A value of a JSON text left unparsed (PyJsonParseOptions.defer): `value` parses it, once,
 * with the same rules and the error positions of the whole text, and lets the text go.
 */
export class DeferredJson {
  private text: string | null;
  private parsed: { v: unknown } | null = null;
  constructor(
    text: string,
    readonly from: number,
    readonly to: number,
  ) {
    this.text = text;
  }
  private waiting: Array<() => void> = [];
  get value(): unknown {
    if (!this.parsed) {
      this.parsed = { v: parseRange(this.text!, this.from, this.to, null) };
      this.text = null;
      const waiting = this.waiting;
      this.waiting = [];
      for (const then of waiting) then();
    }
    return this.parsed.v;
  }
  get isParsed(): boolean {
    return this.parsed !== null;
  }
  /** Calls `then` once the value is parsed (now, if it is). */
  whenParsed(then: () => void): void {
    if (this.parsed) then();
    else this.waiting.push(then);
  }
}

/** Calls `then` once every DeferredJson among `values` is parsed (now, if none is waiting). */
export function whenAllParsed(values: readonly unknown[], then: () => void): void {
  const waiting = values.filter((v): v is DeferredJson => v instanceof DeferredJson && !v.isParsed);
  let left = waiting.length;
  if (left === 0) return then();
  for (const d of waiting) d.whenParsed(() => --left === 0 && then());
}

/** The value behind a DeferredJson (parsed now, if not yet), anything else as it is. */
export const undeferred = (v: unknown): unknown => (v instanceof DeferredJson ? v.value : v);

function parseRange(text: string, from: number, end: number, defer: NonNullable<PyJsonParseOptions['defer']> | null): unknown {
  let i = from;
  // Where the next backslash and the next control character are (-1: none left), found with
  // one native search each time the parse passes the last one found: most strings hold
  // neither, and are then one indexOf and one copy.
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
  // A run of whitespace is passed by a native search: a long one in a loop here would have V8
  // compile this closure while it runs (on-stack replacement), which may fold its context, and
  // with it the text, into the compiled code and keep the text alive after the parse.
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
  // Nesting of the object or array being parsed (the top value's is 0).
  // Keys of the last object parsed at each depth, a guess for the next one's: its n-th key is
  // compared in place (no copy, no hashing) with the text; undefined where that key had escapes.
  const keysAt: Array<Array<string | undefined> | undefined> = [];
  let depth = 0;
  // Items of the arrays being parsed, innermost last; each array is copied out at its end, at
  // its exact length (pushing onto a new array would reserve room for 16 or more items, which
  // in a universe's thousands of short arrays is most of their memory).
  const stack: unknown[] = [];
  let top = 0;
  // Set by string(): whether the literal just read had escapes.
  let escapedLast = false;

  const value = (): unknown => {
    ws();
    const c = text.charCodeAt(i);
    if (c === QUOTE) return string();
    if (c === OPEN_BRACE) return object();
    if (c === OPEN_BRACKET) return array();
    if (isDigit(c) || c === MINUS) {
      const v = number();
      if (v !== undefined) return v;
    }
    if (text.startsWith('null', i)) return (i += 4), null;
    if (text.startsWith('true', i)) return (i += 4), true;
    if (text.startsWith('false', i)) return (i += 5), false;
    if (text.startsWith('NaN', i)) return (i += 3), new PyFloat(Number.NaN);
    if (text.startsWith('Infinity', i)) return (i += 8), new PyFloat(Infinity);
    if (text.startsWith('-Infinity', i)) return (i += 9), new PyFloat(-Infinity);
    return fail('Expecting value');
  };
  // -?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)? at i, as Python's scanner matches it; undefined (i
  // unmoved) when there is none ("-" not followed by a digit).
  const number = (): number | bigint | PyFloat | undefined => {
    const start = i;
    let j = i;
    if (text.charCodeAt(j) === MINUS) j++;
    let c = text.charCodeAt(j);
    if (!isDigit(c)) return undefined;
    let n = 0;
    if (c === ZERO) j++;
    else while (isDigit(c)) (n = n * 10 + (c - ZERO)), (c = text.charCodeAt(++j));
    const intEnd = j;
    let float = false;
    if (text.charCodeAt(j) === DOT && isDigit(text.charCodeAt(j + 1))) {
      float = true;
      j += 2;
      while (isDigit(text.charCodeAt(j))) j++;
    }
    c = text.charCodeAt(j);
    if (c === 101 || c === 69) {
      let k = j + 1;
      const sign = text.charCodeAt(k);
      if (sign === 43 || sign === MINUS) k++;
      if (isDigit(text.charCodeAt(k))) {
        float = true;
        while (isDigit(text.charCodeAt(k))) k++;
        j = k;
      }
    }
    i = j;
    if (float) return new PyFloat(Number(text.slice(start, j)));
    const negative = text.charCodeAt(start) === MINUS;
    const digits = intEnd - start - (negative ? 1 : 0);
    if (digits <= EXACT_DIGITS) return negative ? -n : n;
    const big = Number(text.slice(start, j));
    return Number.isSafeInteger(big) ? big : BigInt(text.slice(start, j));
  };
  const string = (): string => {
    const start = i;
    scanString();
    return copyOf(start, i, escapedLast);
  };
  // Moves i past the string literal at i, checked (Python's messages); sets escapedLast.
  const scanString = (): void => {
    const start = i;
    i++;
    const quote = text.indexOf('"', i);
    if (quote >= 0 && quote < end && plainUntil(quote)) {
      i = quote + 1;
      escapedLast = false;
      return;
    }
    // Escapes and control characters are checked here; the string itself is decoded by
    // copyOf (JSON's escapes are Python's).
    for (;;) {
      SPECIAL.lastIndex = i;
      const m = SPECIAL.exec(text);
      if (!m || m.index >= end) {
        i = end;
        return fail('Unterminated string starting at', start);
      }
      i = m.index;
      const c = text.charCodeAt(i);
      if (c === QUOTE) {
        i++;
        escapedLast = true;
        return;
      }
      if (c !== 92) return fail('Invalid control character at', i);
      const e = text[i + 1];
      if (e !== undefined && ESCAPES.has(e)) i += 2;
      else if (e === 'u') {
        if (!HEX4.test(text.slice(i + 2, i + 6))) fail('Invalid \\uXXXX escape', i + 1);
        i += 6;
      } else fail('Invalid \\escape', i);
    }
  };
  // The object or array at i, skipped: strings checked as they are passed, brackets counted
  // (a bracket of the wrong kind or a bad token inside is found when the value is parsed).
  const deferred = (): DeferredJson => {
    const start = i;
    let open = 0;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) {
        scanString();
        continue;
      }
      i++;
      if (c === OPEN_BRACE || c === OPEN_BRACKET) open++;
      else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        if (--open === 0) return new DeferredJson(text, start, i);
      } else if (i > end) {
        i = end;
        return fail("Expecting ',' delimiter");
      }
    }
  };
  // The string literal text[from, to) (quotes included, already checked). A slice of `text`
  // (V8 slices strings of 13 characters or more) would keep the whole scenario text alive as
  // long as the daemon's states hold one of its strings: JSON.parse of the literal is a copy.
  const copyOf = (from: number, to: number, escaped: boolean): string =>
    !escaped && to - from < SLICE_MIN + 2 ? text.slice(from + 1, to - 1) : (JSON.parse(text.slice(from, to)) as string);
  const array = (): unknown[] => {
    i++;
    ws();
    if (text.charCodeAt(i) === CLOSE_BRACKET) return i++, [];
    const d = depth++;
    const base = top;
    for (;;) {
      const v = value();
      stack[top++] = v;
      ws();
      const c = text.charCodeAt(i);
      if (c === COMMA) {
        i++;
        continue;
      }
      if (c === CLOSE_BRACKET) {
        i++;
        const out = stack.slice(base, top);
        top = base;
        depth = d;
        return out;
      }
      fail("Expecting ',' delimiter");
    }
  };
  const object = (): Record<string, unknown> => {
    i++;
    const out: Record<string, unknown> = {};
    ws();
    if (text.charCodeAt(i) === CLOSE_BRACE) return i++, out;
    const d = depth++;
    const guess = keysAt[d];
    // This object's keys, kept only once one differs from the guess.
    let own: Array<string | undefined> | null = null;
    for (let n = 0; ; n++) {
      ws();
      if (text.charCodeAt(i) !== QUOTE) fail('Expecting property name enclosed in double quotes');
      let k: string;
      const g = own === null && guess !== undefined ? guess[n] : undefined;
      if (g !== undefined && text.charCodeAt(i + 1 + g.length) === QUOTE && text.startsWith(g, i + 1)) {
        k = g;
        i += g.length + 2;
      } else {
        k = string();
        own ??= guess ? guess.slice(0, n) : [];
        // a key with escapes is not comparable in place: no guess for this position
        own.push(escapedLast ? undefined : k);
      }
      ws();
      if (text.charCodeAt(i) !== COLON) fail("Expecting ':' delimiter");
      i++;
      let v: unknown;
      if (defer !== null && d === defer.depth && defer.keys.has(k)) {
        ws();
        const c = text.charCodeAt(i);
        v = c === OPEN_BRACE || c === OPEN_BRACKET ? deferred() : value();
      } else v = value();
      // A plain assignment keeps objects in V8's fast mode; only "__proto__" needs defining.
      if (k === '__proto__') Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
      else out[k] = v;
      ws();
      const c = text.charCodeAt(i);
      if (c === COMMA) {
        i++;
        continue;
      }
      if (c === CLOSE_BRACE) {
        i++;
        if (own !== null) keysAt[d] = own;
        depth = d;
        return out;
      }
      fail("Expecting ',' delimiter");
    }
  };
  const v = value();
  ws();
  if (i < end) fail('Extra data');
  // V8 keeps the subject of the last successful match (RegExp.input): a match on an empty
  // string lets a large scenario text go once the caller drops it.
  EMPTY.test('');
  return v;
}

