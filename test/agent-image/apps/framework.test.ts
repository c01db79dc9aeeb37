// Small framework helpers whose Python behaviour the apps depend on.
import { describe, expect, it } from 'vitest';
import { resolveDrivePath, rewriteDrivePath } from '../../../agent-image/src/apps/framework/drive.js';
import { pyRepr, pyStr } from '../../../agent-image/src/apps/framework/python.js';
import { formatWeekdayDateTime, parseDateTime } from '../../../agent-image/src/apps/framework/time.js';
import { PyFloat } from '../../../agent-image/src/contract/pyjson.js';

describe('time', () => {
  it('parses like strptime %Y-%m-%d %H:%M:%S in UTC', () => {
    expect(parseDateTime('2024-10-15 07:00:00')).toEqual({ ok: true, epoch: 1728975600 });
    expect(parseDateTime('2023-1-1 1:0:0')).toEqual({ ok: true, epoch: 1672534800 });
    expect(parseDateTime('2024-10-15T07:00:00')).toEqual({ ok: false, error: "time data '2024-10-15T07:00:00' does not match format '%Y-%m-%d %H:%M:%S'" });
    expect(parseDateTime('2023-02-29 00:00:00')).toEqual({ ok: false, error: 'day is out of range for month' });
    expect(formatWeekdayDateTime(1728975600)).toBe('Tuesday, 2024-10-15 07:00:00');
  });
});

describe('drive paths', () => {
  it('rewrites ~ and leading slashes and refuses escapes', () => {
    expect(rewriteDrivePath('/')).toBe('');
    expect(rewriteDrivePath('~/Docs/a')).toBe('home/userhome/Docs/a');
    expect(rewriteDrivePath('~bob/x')).toBe('home/userhome/bob/x');
    expect(rewriteDrivePath('//Docs')).toBe('Docs');
    expect(resolveDrivePath('/r', '/Docs/../a.txt')).toEqual({ abs: '/r/a.txt', rewritten: 'Docs/../a.txt' });
    expect(resolveDrivePath('/r', '/')).toEqual({ abs: '/r', rewritten: '' });
    expect(resolveDrivePath('/r', '../x')).toBeNull();
    expect(resolveDrivePath('/r', 'a/../../x')).toBeNull();
  });
});

describe('python str/repr', () => {
  it('formats values like Python', () => {
    expect([true, null, 3, new PyFloat(1500), 2.5, 'x', ['a', 1]].map(pyStr)).toEqual(['True', 'None', '3', '1500.0', '2.5', 'x', '["a", 1]']);
    expect(pyRepr("it's")).toBe('"it\'s"');
    expect(pyRepr('a\nb')).toBe("'a\\nb'");
  });
});
