import { describe, expect, it } from 'vitest';
import { getCloseMatches, sequenceRatio } from '../../../agent-image/src/apps/framework/difflib.js';

// Expected values computed with CPython's difflib.
describe('difflib', () => {
  it('scores like SequenceMatcher.ratio', () => {
    expect(sequenceRatio('lena fisher', 'lena fischer')).toBeCloseTo(0.9565217391304348, 15);
    expect(sequenceRatio('abc', 'xyz')).toBe(0);
    expect(sequenceRatio('', '')).toBe(1);
  });
  it('ranks close matches like get_close_matches', () => {
    const cmds = ['add-event', 'get-event', 'delete-event', 'get-events', 'today-events', 'get-all-tags', 'get-events-by-tag', 'search-events'];
    expect(getCloseMatches('get-event-by-tag', cmds)).toEqual(['get-events-by-tag', 'get-event', 'get-events']);
    expect(getCloseMatches('--start-dat', ['--start-date', '--end-date', '--offset', '--limit', '--help'])).toEqual(['--start-date']);
    expect(getCloseMatches('zzz', cmds)).toEqual([]);
  });
});
