// Some top-level members of a large JSON object, without parsing the rest. A scenario of real
// size is megabytes of app state the viewer never shows; its page needs only `events`. The
// scan works on the UTF-8 bytes (a multi-byte character never contains an ASCII byte, so
// quotes, backslashes and brackets are found by value); the members asked for are then parsed
// by JSON.parse as usual.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const isSpace = (c: number | undefined): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** Index just past the string whose opening quote is at `i`; -1 when it never closes. */
function skipString(b: Buffer, i: number): number {
  let at = i + 1;
  for (;;) {
    const q = b.indexOf(QUOTE, at);
    if (q < 0) return -1;
    let slashes = 0;
    for (let k = q - 1; b[k] === BACKSLASH; k--) slashes++;
    if (slashes % 2 === 0) return q + 1;
    at = q + 1;
  }
}

/** Index just past the JSON value starting at `i` (no whitespace before it); -1 when malformed. */
function skipValue(b: Buffer, i: number): number {
  const c = b[i];
  if (c === QUOTE) return skipString(b, i);
  if (c === 0x7b || c === 0x5b) {
    let depth = 0;
    for (let k = i; k < b.length; k++) {
      const x = b[k];
      if (x === QUOTE) {
        // strings are skipped with the native indexOf (measured ~2× faster than a byte loop)
        k = skipString(b, k) - 1;
        if (k < 0) return -1;
      } else if (x === 0x7b || x === 0x5b) depth++;
      else if (x === 0x7d || x === 0x5d) {
        if (--depth === 0) return k + 1;
      }
    }
    return -1;
  }
  // a number, true, false or null: up to the next delimiter
  let k = i;
  while (k < b.length && b[k] !== 0x2c && b[k] !== 0x7d && b[k] !== 0x5d && !isSpace(b[k])) k++;
  return k > i ? k : -1;
}

/**
 * The JSON text of the top-level members named in `keys` (the last one of a repeated key, as
 * JSON.parse keeps). Null when the document is not a well-formed object at the top level; the
 * values themselves are only delimited here, JSON.parse validates what the caller parses.
 */
export function topLevelMembers(b: Buffer, keys: ReadonlySet<string>): Map<string, string> | null {
  const out = new Map<string, string>();
  let i = 0;
  const ws = () => {
    while (isSpace(b[i])) i++;
  };
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) i = 3; // a UTF-8 byte order mark
  ws();
  if (b[i] !== 0x7b) return null;
  i++;
  ws();
  if (b[i] === 0x7d) return out;
  for (;;) {
    if (b[i] !== QUOTE) return null;
    const keyEnd = skipString(b, i);
    if (keyEnd < 0) return null;
    let key: string;
    try {
      key = JSON.parse(b.toString('utf8', i, keyEnd)) as string;
    } catch {
      return null;
    }
    i = keyEnd;
    ws();
    if (b[i] !== 0x3a) return null;
    i++;
    ws();
    const end = skipValue(b, i);
    if (end < 0) return null;
    if (keys.has(key)) out.set(key, b.toString('utf8', i, end));
    i = end;
    ws();
    if (b[i] === 0x2c) {
      i++;
      ws();
      continue;
    }
    return b[i] === 0x7d ? out : null;
  }
}
