// Python built-in semantics the apps mirror on arbitrary JSON input (found by the differential
// test against the reference CLIs: cli-diff.test.ts).
import { describe, expect, it } from 'vitest';
import { pyContains, pyDictUpdateEntries, pyHashKey, pyIter, pyTypeName } from '../../../../agent-image/src/apps/framework/py-builtins.js';
import { AppError } from '../../../../agent-image/src/apps/framework/errors.js';
import { PyFloat } from '../../../../agent-image/src/contract/pyjson.js';

const message = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    return (e as Error).message;
  }
  throw new Error('did not fail');
};

describe('Python built-ins on JSON values', () => {
  it('type names', () => {
    expect([1, new PyFloat(1), 1.5, true, null, 's', [], {}].map(pyTypeName)).toEqual(['int', 'float', 'float', 'bool', 'NoneType', 'str', 'list', 'dict']);
  });

  it('iter(): characters of a str, keys of a dict, TypeError for scalars', () => {
    expect(pyIter('+3😀')).toEqual(['+', '3', '😀']);
    expect(pyIter({ a: 1, b: 2 })).toEqual(['a', 'b']);
    expect(pyIter([1, 'x'])).toEqual([1, 'x']);
    expect(message(() => pyIter(7))).toBe("'int' object is not iterable");
    expect(message(() => pyIter(null))).toBe("'NoneType' object is not iterable");
  });

  it('set membership: 1 == 1.0 == True, lists and dicts unhashable', () => {
    expect(pyHashKey(1)).toBe(pyHashKey(new PyFloat(1)));
    expect(pyHashKey(true)).toBe(pyHashKey(1));
    expect(pyHashKey('1')).not.toBe(pyHashKey(1));
    expect(message(() => pyHashKey([1]))).toBe("unhashable type: 'list'");
  });

  it('`in`: substring for str, key for dict, element for list', () => {
    expect(pyContains('Team Daily', 'Daily')).toBe(true);
    expect(pyContains({ Ana: 1 }, 'Ana')).toBe(true);
    expect(pyContains(['Ana', 2], 2)).toBe(true);
    expect(pyContains(['Ana'], 'ana')).toBe(false);
    expect(message(() => pyContains(3, 'x'))).toBe("argument of type 'int' is not iterable");
  });

  it('dict.update(): an object, or key/value pairs', () => {
    expect(pyDictUpdateEntries({ SAVE10: 10 })).toEqual({ SAVE10: 10 });
    expect(pyDictUpdateEntries([])).toEqual({});
    expect(pyDictUpdateEntries([['A', 5], 'bc'])).toEqual({ A: 5, b: 'c' });
    expect(message(() => pyDictUpdateEntries(['abc']))).toBe('dictionary update sequence element #0 has length 3; 2 is required');
    expect(message(() => pyDictUpdateEntries(5))).toBe("'int' object is not iterable");
  });
});
