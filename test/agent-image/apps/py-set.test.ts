// Python set order for strings (CPython 3.11, PYTHONHASHSEED=0; expected values are what
// list(set([...])) printed there): the hash of each string
// width (latin-1, UCS-2, UCS-4; under, at and over one 8-byte block) and the iteration order of
// sets small enough to stay in 8 slots and large enough to be rebuilt, as CPython printed them.
import { describe, expect, it } from 'vitest';
import { pySetOrder, pyStrHash } from '../../../agent-image/src/apps/framework/py-set.js';

describe('Python str hash and set order', () => {
  it('hashes like CPython with hash randomisation off', () => {
    expect(pyStrHash('work')).toBe(202725061694544904n);
    expect(pyStrHash('Ünïcode')).toBe(13656047741797853842n);
    expect(pyStrHash('🚆x')).toBe(15710979915320584236n);
    expect(pyStrHash('aaaaaaaa')).toBe(14195822311982140562n);
    expect(pyStrHash('abcdefghijklmnop')).toBe(10733781318231302930n);
    expect(pyStrHash('')).toBe(0n);
  });

  it('iterates in table order, which depends on insertion order when slots collide', () => {
    expect(pySetOrder(['work', 'health', 'personal', 'housing'])).toEqual(['work', 'health', 'personal', 'housing']);
    expect(pySetOrder(['pottery', 'music', 'health', 'Tréfle', 'sport', 'admin'])).toEqual(['health', 'music', 'Tréfle', 'pottery', 'admin', 'sport']);
    // 11 keys: the 8-slot table is rebuilt (to 32 slots) on the 5th.
    expect(pySetOrder(['b', 'a', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k'])).toEqual(['d', 'f', 'g', 'h', 'k', 'b', 'i', 'c', 'a', 'j', 'e']);
  });

  it('keeps one of each', () => {
    expect(pySetOrder(['x', 'y', 'x', 'y', 'x'])).toHaveLength(2);
  });
});
