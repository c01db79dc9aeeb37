import { describe, expect, it } from 'vitest';
import { baseTypeName, flattenArgs, parseArgValue, parsePlaceholder, resolvePlaceholder } from '../../../agent-image/src/scenario/index.js';
import { PyFloat, pyDumps } from '../../../agent-image/src/contract/pyjson.js';

describe('parseArgValue', () => {
  it('lists and dicts are read like json.loads: float literals stay floats', () => {
    const v = parseArgValue('{"SORRY15": 15.0, "n": 2}', 'dict') as Record<string, unknown>;
    expect(v.SORRY15).toBeInstanceOf(PyFloat);
    expect(v.n).toBe(2);
    expect(pyDumps(v)).toBe('{"SORRY15": 15.0, "n": 2}');
    expect(pyDumps(parseArgValue('[1.5, 2.0, 3]', 'list'))).toBe('[1.5, 2.0, 3]');
    expect(parseArgValue('[not json', 'list')).toBe('[not json');
  });
  it('strips Optional and type parameters', () => {
    expect(baseTypeName('Optional[list[str]]')).toBe('list');
    expect(baseTypeName('dict[str, Any]')).toBe('dict');
    expect(baseTypeName(null)).toBeNull();
  });
  it('converts numbers the Python way and keeps the raw value on failure', () => {
    expect(parseArgValue('3', 'int')).toBe(3);
    expect(parseArgValue(' 1_000 ', 'int')).toBe(1000);
    expect(parseArgValue('3.5', 'int')).toBe('3.5');
    expect(parseArgValue('89.0', 'float')).toBe(89);
    expect(parseArgValue('abc', 'float')).toBe('abc');
    expect(parseArgValue('2', 'Optional[int]')).toBe(2);
  });
  it('bools: true/1/t/y/yes (any case) are true, anything else false', () => {
    expect(['True', 'true', '1', 'T', 'y', 'YES'].map((v) => parseArgValue(v, 'bool'))).toEqual(Array(6).fill(true));
    expect(['False', '0', 'no', ''].map((v) => parseArgValue(v, 'bool'))).toEqual(Array(4).fill(false));
  });
  it('lists and dicts are JSON; Python reprs stay strings; type inferred from [ or {', () => {
    expect(parseArgValue('["a", "b"]', 'list')).toEqual(['a', 'b']);
    expect(parseArgValue("['a']", 'list')).toBe("['a']");
    expect(parseArgValue('{"k": 1}', null)).toEqual({ k: 1 });
    expect(parseArgValue('[1]', undefined)).toEqual([1]);
    expect(parseArgValue('plain', null)).toBe('plain');
  });
  it('null stays null, empty string stays empty, placeholders stay raw', () => {
    expect(parseArgValue(null, 'Optional[str]')).toBeNull();
    expect(parseArgValue('', 'Optional[str]')).toBe('');
    expect(parseArgValue('{{Event-1}}', 'int')).toBe('{{Event-1}}');
  });
  it('flattens in list order', () => {
    expect(flattenArgs([
      { name: 'b', value: '1', value_type: 'int' },
      { name: 'a', value: 'x', value_type: 'str' },
    ])).toEqual({ b: 1, a: 'x' });
  });
});

describe('placeholders', () => {
  const lookup = (id: string) =>
    id === 'o1' ? { found: true as const, value: 'ret_value' } : id === 'o2' ? { found: true as const, value: { id: 'nested_val' } } : { found: false as const };
  it('resolves whole-value placeholders, with key paths, trimmed', () => {
    expect(resolvePlaceholder('{{o1}}', lookup)).toEqual({ resolved: true, value: 'ret_value' });
    expect(resolvePlaceholder(' {{o2.id}} ', lookup).value).toBe('nested_val');
    expect(resolvePlaceholder('{{o2}}', lookup).value).toEqual({ id: 'nested_val' });
  });
  it('leaves unknown ids, missing keys and embedded placeholders literal', () => {
    expect(resolvePlaceholder('{{unknown_id}}', lookup)).toEqual({ resolved: false, value: '{{unknown_id}}' });
    expect(resolvePlaceholder('{{o2.nope}}', lookup).value).toBe('{{o2.nope}}');
    expect(resolvePlaceholder('{{o1.id}}', lookup).value).toBe('{{o1.id}}');
    expect(resolvePlaceholder('id is {{o1}}', lookup).value).toBe('id is {{o1}}');
    expect(parsePlaceholder('{{a.b.c}}')).toEqual({ eventId: 'a', keys: ['b', 'c'] });
  });
});
