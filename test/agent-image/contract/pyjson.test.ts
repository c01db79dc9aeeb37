import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { PyFloat, PyJsonText, compactFromIndented, formatEventLine, parsePyJson, pyDumps, pyDumpsChunked, pyFloatRepr, pyJsonValue } from '../../../agent-image/src/contract/pyjson.js';

describe('pyFloatRepr', () => {
  it.each([
    [1728975600, '1728975600.0'],
    [13.455000000000002, '13.455000000000002'],
    [245.48000000000002, '245.48000000000002'],
    [0.1, '0.1'],
    [1e16, '1e+16'],
    [1.5e-5, '1.5e-05'],
    [0.0001, '0.0001'],
    [123456789012345.6, '123456789012345.6'],
    [-2.5, '-2.5'],
    [0, '0.0'],
  ])('%s → %s', (x, s) => expect(pyFloatRepr(x)).toBe(s));
});

describe('pyDumps', () => {
  it('prints like Python json.dumps with indent=2 and ensure_ascii', () => {
    const v = { a: [1, new PyFloat(2), 'Olá 🚆'], b: {}, c: [], d: null, e: true, f: 'q"\\\n' };
    expect(pyDumps(v, { indent: 2 })).toBe(
      '{\n  "a": [\n    1,\n    2.0,\n    "Ol\\u00e1 \\ud83d\\ude86"\n  ],\n  "b": {},\n  "c": [],\n  "d": null,\n  "e": true,\n  "f": "q\\"\\\\\\n"\n}',
    );
    expect(pyDumps({ a: [1, 2.5], b: 'x' })).toBe('{"a": [1, 2.5], "b": "x"}');
  });
  it('in pieces (pyDumpsChunked): the same text, cut after items once a piece reaches the size', () => {
    const v = { emails: Array.from({ length: 300 }, (_, i) => ({ id: `e${i}`, to: ['a@x', 'b@y'], ts: new PyFloat(i) })), m: new Map([['k', [1, 2]]]) };
    const pieces: string[] = [];
    const last = pyDumpsChunked(v, { indent: 2 }, 1000, (t) => pieces.push(t));
    expect(pieces.join('') + last).toBe(pyDumps(v, { indent: 2 }));
    expect(pieces.length).toBeGreaterThan(10);
    for (const p of pieces) expect(p.length).toBeGreaterThanOrEqual(1000);
    expect(pieces.every((p) => p.length < 1200)).toBe(true);
  });
  it('keeps float literals from parsed text', () => {
    const v = parsePyJson('{"price": 950, "ts": 1728974530.0, "r": 4.5e1}');
    expect(pyDumps(v)).toBe('{"price": 950, "ts": 1728974530.0, "r": 45.0}');
  });
  it('reports Python json errors', () => {
    expect(() => parsePyJson('job=Manager')).toThrow('Expecting value: line 1 column 1 (char 0)');
  });
});

describe('formatEventLine', () => {
  it('orders keys and prints t as a float', () => {
    const line = formatEventLine({ sim_t: '2024-10-15 07:00:00', ret: 'x', w: true, args: { q: 1 }, fn: 'f', app: 'A', t: 1728975600 });
    expect(line).toBe('{"t": 1728975600.0, "app": "A", "fn": "f", "args": {"q": 1}, "w": true, "ret": "x", "sim_t": "2024-10-15 07:00:00"}');
  });
});

describe('formatEventLine with missing values', () => {
  it('keeps the six mandatory keys (null when absent) and drops absent optional ones', () => {
    const line = formatEventLine({ t: 1.5, app: 'A', fn: 'f', args: {}, w: false, ret: undefined });
    expect(line).toBe('{"t": 1.5, "app": "A", "fn": "f", "args": {}, "w": false, "ret": null}');
  });
});

describe('parsePyJson against JSON.parse', () => {
  // A seeded generator of JSON texts: nested values, strings with escapes, quotes, control
  // escapes and non-ASCII, ints, floats and exponents, and varied whitespace.
  function generator(seed: number) {
    let x = seed;
    const rnd = (n: number) => ((x = (x * 1103515245 + 12345) % 2 ** 31), x % n);
    const pieces = ['a', 'Zz', ' ', '"', '\\', '/', '\n', '\t', '\u0001', 'é', '€', '😀', '{}', '[1.0]', 'null'];
    const str = () => Array.from({ length: rnd(8) }, () => pieces[rnd(pieces.length)]).join('');
    const num = () => [String(rnd(1000) - 500), `${rnd(100)}.${rnd(100)}`, `${rnd(9) + 1}e${rnd(5)}`, `-${rnd(50)}.0`, '0', '1E-3'][rnd(6)]!;
    const ws = () => ['', ' ', '\n  ', '\t', '\r\n'][rnd(5)]!;
    const value = (depth: number): string => {
      const k = rnd(depth > 3 ? 4 : 6);
      if (k === 0) return JSON.stringify(str());
      if (k === 1) return num();
      if (k === 2) return ['true', 'false', 'null'][rnd(3)]!;
      if (k === 3) return JSON.stringify(str().replace(/\\/g, ''));
      if (k === 4) return `[${ws()}${Array.from({ length: rnd(4) }, () => value(depth + 1)).join(`${ws()},${ws()}`)}${ws()}]`;
      return `{${ws()}${Array.from({ length: rnd(4) }, () => `${JSON.stringify(str())}${ws()}:${ws()}${value(depth + 1)}`).join(`,${ws()}`)}${ws()}}`;
    };
    return () => `${ws()}${value(0)}${ws()}`;
  }
  const plain = (v: unknown): unknown =>
    v instanceof PyFloat ? v.value : Array.isArray(v) ? v.map(plain) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)])) : v;
  const floats = (v: unknown, out: string[] = []): string[] => {
    if (v instanceof PyFloat) out.push(pyFloatRepr(v.value));
    else if (Array.isArray(v)) v.forEach((x) => floats(x, out));
    else if (v && typeof v === 'object') Object.values(v).forEach((x) => floats(x, out));
    return out;
  };

  it('gives the same values on 2,000 generated documents; exactly the literals with . or e are floats', () => {
    const next = generator(42);
    for (let n = 0; n < 2000; n++) {
      const text = next();
      const ours = parsePyJson(text);
      expect(plain(ours), text).toEqual(JSON.parse(text));
      const literals = text.replace(/"(?:[^"\\]|\\.)*"/g, '""').match(/-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/g) ?? [];
      expect(floats(ours).length, text).toBe(literals.filter((l) => /[.eE]/.test(l)).length);
    }
  });

  it('decodes long strings, with and without escapes, as JSON.parse does', () => {
    const strings = ['x'.repeat(12), 'y'.repeat(13), 'z'.repeat(200), `a\\n${'b'.repeat(30)}\\u00e9\\ud83d`, '\\"q\\/', `${'c'.repeat(20)}é😀\\t`];
    const text = `{"${'k'.repeat(20)}": [${strings.map((x) => `"${x}"`).join(', ')}]}`;
    expect(parsePyJson(text)).toEqual(JSON.parse(text));
  });

  it('keeps nothing of the text it parsed alive: its strings are copies, not slices of it', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const heap = (): number => (gc(), process.memoryUsage().heapUsed);
    const before = heap();
    // 20 MB of whitespace after two long strings, one of them with escapes.
    let text: string | null = `["${'x'.repeat(40)}", "\\n${'y'.repeat(40)}",${' '.repeat(20e6)}1]`;
    const v = parsePyJson(text);
    text = null;
    expect(heap() - before).toBeLessThan(5e6);
    expect(v).toEqual(['x'.repeat(40), `\n${'y'.repeat(40)}`, 1]);
  });

  it('compactFromIndented turns the indent=2 text of each document into its compact text', () => {
    const next = generator(7);
    for (let n = 0; n < 2000; n++) {
      const v = parsePyJson(next());
      expect(compactFromIndented(pyDumps(v, { indent: 2 }))).toBe(pyDumps(v));
    }
  });

  it('rejects what JSON forbids in strings, with Python messages', () => {
    expect(() => parsePyJson('"a\u0001b"')).toThrow(/Invalid control character at: line 1 column 3 \(char 2\)/);
    expect(() => parsePyJson('"abc')).toThrow(/Unterminated string starting at: line 1 column 1 \(char 0\)/);
    expect(() => parsePyJson('"a\\qb"')).toThrow(/Invalid \\escape: line 1 column 3 \(char 2\)/);
    expect(() => parsePyJson('"a\\u12x4"')).toThrow(/Invalid \\uXXXX escape: line 1 column 4 \(char 3\)/);
    expect(() => parsePyJson('"a\\nb')).toThrow(/Unterminated string starting at: line 1 column 1 \(char 0\)/);
    expect(() => parsePyJson('"a\\nb\u0002"')).toThrow(/Invalid control character at: line 1 column 6 \(char 5\)/);
    expect(() => parsePyJson('{"a": 1,}')).toThrow(/Expecting property name enclosed in double quotes/);
  });
});

describe('pyFloatRepr against Python repr', () => {
  it('prints what Python prints for floats across the positional and exponent ranges', () => {
    // Python's repr(float(x)) for each, recorded with CPython 3.
    const cases: Array<[number, string]> = [
      [0.1, '0.1'], [1.5, '1.5'], [1728974530, '1728974530.0'], [1e-4, '0.0001'], [0.00012345, '0.00012345'],
      [9999999999999998, '9999999999999998.0'], [1e16, '1e+16'], [1e-5, '1e-05'], [1 / 3, '0.3333333333333333'],
      [0.30000000000000004, '0.30000000000000004'], [-2.5, '-2.5'], [-1e-4, '-0.0001'], [1e22, '1e+22'], [5e-324, '5e-324'],
      [123456789.123, '123456789.123'], [100, '100.0'],
    ];
    for (const [x, py] of cases) expect(pyFloatRepr(x), String(x)).toBe(py);
  });
});

describe('PyJsonText', () => {
  it('is copied as is into compact text and walked as its value when indented', () => {
    const ret = new PyJsonText('[{"a": 1.0, "b": "x, y"}, []]');
    const value = [{ a: new PyFloat(1), b: 'x, y' }, []];
    expect(pyDumps({ fn: 'f', ret })).toBe('{"fn": "f", "ret": [{"a": 1.0, "b": "x, y"}, []]}');
    expect(pyDumps({ fn: 'f', ret }, { indent: 2 })).toBe(pyDumps({ fn: 'f', ret: value }, { indent: 2 }));
    expect(formatEventLine({ t: 1, app: 'A', fn: 'f', args: {}, w: false, ret })).toBe(formatEventLine({ t: 1, app: 'A', fn: 'f', args: {}, w: false, ret: value }));
  });

  it('parses its text once, when first read', () => {
    const ret = new PyJsonText('{"k": [1, 2.5]}');
    const first = pyJsonValue(ret);
    expect(first).toEqual({ k: [1, new PyFloat(2.5)] });
    expect(pyJsonValue(ret)).toBe(first);
    expect(pyJsonValue('plain')).toBe('plain');
  });
});
