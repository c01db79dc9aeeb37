// Python `re.search(pattern, text, IGNORECASE)` semantics for messaging regex-search; cases
// from the ARE messaging tests.
import { describe, expect, it } from 'vitest';
import { pythonRegex } from '../../../agent-image/src/apps/messaging/search.js';

const cases: Array<[string, string, boolean]> = [
  ['\\$', 'costs $5', true],
  ['\\(.*\\)', 'see (this)', true],
  ['\\.com', 'mail.com', true],
  ['\\.com', 'mailxcom', false],
  ['&', 'salt & pepper', true],
  ['🎉', 'party 🎉 time', true],
  ['CAFÉ', 'Café tonight', true],
  ['\\d{4}-\\d{2}-\\d{2}', 'on 2024-10-15', true],
  ['Alpha|Beta', 'the beta test', true],
  ['^\\s+$', '   ', true],
  ['^\\s+$', ' x ', false],
  ['^$', '', true],
  ['', 'anything', true],
  ['(?P<d>\\d)(?P=d)', 'a 44 b', true],
  ['\\Aab', 'abc', true],
  ['c\\Z', 'abc', true],
  ['x{,2}y', 'xxy', true],
  ['(?i)hello', 'HELLO', true],
  ['\\-', 'a-b', true],
];

describe('pythonRegex', () => {
  it.each(cases)('%s on %s → %s', (pattern, text, expected) => {
    expect(pythonRegex(pattern).test(text)).toBe(expected);
  });
  it('fails with exit-1 error text on an invalid pattern', () => {
    expect(() => pythonRegex('(')).toThrow(/^Invalid regular expression "\("/);
  });
});
