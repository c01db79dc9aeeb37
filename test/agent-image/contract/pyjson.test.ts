import { describe, expect, it } from 'vitest';
import { PyFloat, formatEventLine, parsePyJson, pyDumps, pyFloatRepr } from '../../../agent-image/src/contract/pyjson.js';

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
