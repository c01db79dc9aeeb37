// Hard checkers, registries and Python emulation (docs/judge.md; the reference's own test cases).
import { describe, expect, it } from 'vitest';
import {
  containAllChecker,
  containAnyChecker,
  datetimeChecker,
  eqChecker,
  eqStrStripChecker,
  hardCompare,
  listAttendeesChecker,
  pathChecker,
  phoneNumberChecker,
  unorderedListChecker,
  unorderedPathListChecker,
} from '../../../agent-image/src/judge/checkers.js';
import { normalizeArg, normalizeStr, normpath, parsePyDatetime } from '../../../agent-image/src/judge/normalize.js';
import { pyEq, pyFormat0f, pyRepr, pyStr } from '../../../agent-image/src/judge/pystr.js';
import {
  ARG_CHECKER_REGISTRY,
  SOFT_CHECKER_REGISTRY,
  isHardChecker,
  isScriptedChecker,
  needsSubtask,
} from '../../../agent-image/src/judge/registry.js';
import { placeholderCheck, todayDate } from '../../../agent-image/src/judge/soft.js';
import { parseVerdict, renderTemplate } from '../../../agent-image/src/judge/prompts.js';
import { pyFloat } from '../../../agent-image/src/contract/pyjson.js';

describe('hard checkers', () => {
  it('eq: Python ==, strict across str/number, 1 == 1.0 == True', () => {
    expect(eqChecker('abc', 'abc')).toBe(true);
    expect(eqChecker('abc', 'def')).toBe(false);
    expect(eqChecker(42, 42)).toBe(true);
    expect(eqChecker(null, null)).toBe(true);
    expect(eqChecker(null, 'x')).toBe(false);
    expect(eqChecker('1', 1)).toBe(false);
    expect(eqChecker(1, pyFloat(1))).toBe(true);
    expect(eqChecker(true, 1)).toBe(true);
    expect(eqChecker(' a', 'a')).toBe(false);
  });

  it('unordered_list: sets, null ~ [], case-sensitive, strings as character sets', () => {
    expect(unorderedListChecker(['a', 'b'], ['b', 'a'])).toBe(true);
    expect(unorderedListChecker(['a'], ['b'])).toBe(false);
    expect(unorderedListChecker(null, null)).toBe(true);
    expect(unorderedListChecker(null, [])).toBe(true);
    expect(unorderedListChecker([], null)).toBe(true);
    expect(unorderedListChecker(['a', 'a', 'b'], ['b', 'a'])).toBe(true);
    expect(unorderedListChecker(['X@y.z'], ['x@y.z'])).toBe(false);
    expect(unorderedListChecker('ab', ['b', 'a'])).toBe(true);
    expect(() => unorderedListChecker([['a']], ['a'])).toThrow(/unhashable/);
  });

  it('path: normpath, leading slashes stripped, falsy pairs', () => {
    expect(pathChecker('/tmp/file.txt', '/tmp/file.txt')).toBe(true);
    expect(pathChecker('/tmp/../tmp/file.txt', '/tmp/file.txt')).toBe(true);
    expect(pathChecker('tmp/file.txt', '/tmp/file.txt')).toBe(true);
    expect(pathChecker(null, null)).toBe(true);
    expect(pathChecker(null, '')).toBe(true);
    expect(pathChecker(null, '/tmp')).toBe(false);
    expect(pathChecker('a/', 'a')).toBe(true);
    expect(pathChecker('/Docs/a', '/docs/a')).toBe(false);
  });

  it('unordered_path_list: sets of normalised paths', () => {
    expect(unorderedPathListChecker(['/a/b', 'c'], ['c/', 'a/./b'])).toBe(true);
    expect(unorderedPathListChecker(null, [])).toBe(true);
    expect(unorderedPathListChecker(['a'], ['b'])).toBe(false);
  });

  it('datetime: parsed instants, null only equals null, 1-digit fields, odd formats throw', () => {
    expect(datetimeChecker('2024-01-15 10:30:00', '2024-01-15 10:30:00')).toBe(true);
    expect(datetimeChecker('2024-01-15 10:30:00', '2024-01-15 11:30:00')).toBe(false);
    expect(datetimeChecker(null, null)).toBe(true);
    expect(datetimeChecker(null, '2024-01-15 10:30:00')).toBe(false);
    expect(datetimeChecker('2024-01-15 10:0:0', '2024-01-15 10:00:00')).toBe(true);
    expect(() => datetimeChecker('2024-01-15T10:30:00', '2024-01-15 10:30:00')).toThrow(/does not match/);
    expect(() => parsePyDatetime('2024-02-30 10:00:00')).toThrow();
    expect(parsePyDatetime('2025-10-09 09:00:00')).toBe(1760000400);
  });

  it('eq_str_strip: trimmed, case-sensitive, null = ""', () => {
    expect(eqStrStripChecker('  hello  ', 'hello')).toBe(true);
    expect(eqStrStripChecker('hello', 'world')).toBe(false);
    expect(eqStrStripChecker('', '')).toBe(true);
    expect(eqStrStripChecker(null, '')).toBe(true);
    expect(eqStrStripChecker(' A ', 'a')).toBe(false);
    expect(eqStrStripChecker('a\u3000\x1c', 'a')).toBe(true); // Python whitespace
    expect(eqStrStripChecker('\ufeffa', 'a')).toBe(false); // not Python whitespace
  });

  it('phone: digits only, null = ""', () => {
    expect(phoneNumberChecker('+1-555-123-4567', '15551234567')).toBe(true);
    expect(phoneNumberChecker('(555) 123-4567', '5551234567')).toBe(true);
    expect(phoneNumberChecker('555-123-4568', '5551234567')).toBe(false);
    expect(phoneNumberChecker(null, null)).toBe(true);
    expect(phoneNumberChecker(null, '123')).toBe(false);
    expect(phoneNumberChecker(null, '')).toBe(true);
    expect(phoneNumberChecker('', null)).toBe(true);
    expect(phoneNumberChecker('', '')).toBe(true);
  });

  it('list_attendees: user-name tolerance, empty oracle accepts anything', () => {
    expect(listAttendeesChecker(['alice', 'bob'], ['bob', 'alice'], [])).toBe(true);
    expect(listAttendeesChecker(['alice'], ['John Doe'], ['john doe'])).toBe(true);
    expect(listAttendeesChecker(['anyone'], [], [])).toBe(true);
    expect(listAttendeesChecker(['anyone'], null, [])).toBe(true);
    expect(listAttendeesChecker(['Bob', 'John Doe'], ['bob'], ['John Doe'])).toBe(true);
    expect(listAttendeesChecker(['Zoë-Ann'], ['zoeann'], [])).toBe(true);
    expect(listAttendeesChecker(['Carl'], ['Bob'], [])).toBe(false);
    expect(listAttendeesChecker(null, ['Bob'], [])).toBe(false);
  });

  it('contain_any / contain_all: case-insensitive substrings of the oracle targets', () => {
    expect(containAnyChecker('hello world', ['hello', 'xyz'])).toBe(true);
    expect(containAnyChecker('hello world', ['xyz', 'abc'])).toBe(false);
    expect(containAllChecker('hello world foo', ['hello', 'world'])).toBe(true);
    expect(containAllChecker('hello world', ['hello', 'xyz'])).toBe(false);
  });
});

describe('hardCompare', () => {
  it('runs hard args in registry order and skips llm args', () => {
    expect(hardCompare('EmailClientApp__reply_to_email', { email_id: 'e123', content: 'x' }, { email_id: 'e123', content: 'y' }, [])).toEqual({
      ok: true,
      rationale: '',
    });
    const r = hardCompare('EmailClientApp__reply_to_email', { email_id: 'e123' }, { email_id: 'e999' }, []);
    expect(r).toEqual({ ok: false, rationale: 'eq_checker:email_id (agent=e123, oracle=e999)' });
  });

  it('a missing arg reads as null; values print with Python str()', () => {
    const r = hardCompare('MessagingAppV2__create_group_conversation', {}, { user_ids: ['u1', "o'k"] }, []);
    expect(r.rationale).toBe(`unordered_list_checker:user_ids (agent=None, oracle=['u1', "o'k"])`);
  });

  it('a checker exception rejects the candidate with its reason instead of crashing', () => {
    const r = hardCompare('CalendarApp__add_calendar_event', { start_datetime: '2024-01-15T10:00' }, { start_datetime: '2024-01-15 10:00:00' }, []);
    expect(r.ok).toBe(false);
    expect(r.rationale).toMatch(/^datetime_checker:start_datetime \(checker error: time data/);
  });

  it('unknown tools have no checks', () => {
    expect(hardCompare('SandboxLocalFileSystem__makedirs', { path: 'a' }, { path: 'b' }, []).ok).toBe(true);
  });
});

describe('registries', () => {
  it('classify checker types', () => {
    expect(isHardChecker('eq_checker') && isHardChecker('datetime_checker')).toBe(true);
    expect(isHardChecker('llm_checker') || isHardChecker('contain_any_checker')).toBe(false);
    expect(isScriptedChecker('contain_any_checker') && isScriptedChecker('contain_all_checker')).toBe(true);
    expect(isScriptedChecker('eq_checker')).toBe(false);
    expect(needsSubtask('content_checker') && needsSubtask('user_message_checker') && needsSubtask('event_checker')).toBe(true);
    expect(needsSubtask('placeholder_checker') || needsSubtask('tone_checker')).toBe(false);
  });

  it('expand app and tool aliases like the reference', () => {
    for (const k of ['CalendarApp__add_calendar_event', 'Calendar__add_calendar_event', 'Emails__send_email', 'Files__mkdir', 'EmailClientV2__send_email', 'Chats__send_message']) {
      expect(ARG_CHECKER_REGISTRY[k], k).toBeDefined();
    }
    for (const k of ['CalendarSqliteApp__add_calendar_event', 'ContactsTreeApp__add_new_contact', 'VirtualFileSystem__mkdir', 'SandboxLocalFileSystem__makedirs']) {
      expect(ARG_CHECKER_REGISTRY[k], k).toBeUndefined();
    }
    expect(SOFT_CHECKER_REGISTRY['Calendar__add_calendar_event']).toEqual(['event_checker']);
    expect(SOFT_CHECKER_REGISTRY['MessagingAppV2__send_message_to_group_conversation']).toEqual(['placeholder_checker', 'message_checker']);
    expect(SOFT_CHECKER_REGISTRY['Chats__change_conversation_title']).toEqual(['content_checker']);
    // V2 arg maps already exist and are not overwritten by the v1 tool alias
    expect(Object.keys(ARG_CHECKER_REGISTRY['MessagingAppV2__send_message']!)).toEqual(['user_id', 'content', 'attachment_path']);
    expect(SOFT_CHECKER_REGISTRY['ContactsApp__edit_contact']).toBeUndefined();
  });
});

describe('soft-check helpers', () => {
  it('placeholder scan', () => {
    expect(placeholderCheck({ content: 'Hello, how are you?' })).toBe(true);
    expect(placeholderCheck({ content: 'Thanks, [Your Name]' })).toBe(false);
    expect(placeholderCheck({ content: "Hi [user's name]" })).toBe(false);
    expect(placeholderCheck({ subject: 'x', content: 'Best,\nYour Name' })).toBe(false);
  });
  it('markers: success first, case-insensitive, none → null', () => {
    const sf = { success: '[[Success]]', failure: '[[Failure]]' };
    expect(parseVerdict('[[success]]', sf)).toBe(true);
    expect(parseVerdict('not [[Failure]] but [[Success]]', sf)).toBe(true);
    expect(parseVerdict('[[FAILURE]]', sf)).toBe(false);
    expect(parseVerdict('fine', sf)).toBeNull();
    expect(parseVerdict(null, sf)).toBeNull();
  });
  it('templates fill in one pass (agent text with {{…}} is left alone)', () => {
    expect(renderTemplate('A {{x}} B {{missing}}', { x: '{{x}}' })).toBe('A {{x}} B ');
  });
  it('today_date: oracle time, else start time, else ""', () => {
    expect(todayDate(null, 1760000400)).toBe('2025-10-09 Thursday');
    expect(todayDate(0, 0)).toBe('');
  });
});

describe('Python emulation', () => {
  it('str and repr', () => {
    expect(pyStr(null)).toBe('None');
    expect(pyStr(true)).toBe('True');
    expect(pyStr(pyFloat(1))).toBe('1.0');
    expect(pyStr(1.5)).toBe('1.5');
    expect(pyStr(['a', 'b'])).toBe("['a', 'b']");
    expect(pyStr({ k: [1, null, false] })).toBe("{'k': [1, None, False]}");
    expect(pyRepr("it's")).toBe(`"it's"`);
    expect(pyRepr(`it's "x"`)).toBe(`'it\\'s "x"'`);
    expect(pyRepr('a\nb\\\u0001')).toBe("'a\\nb\\\\\\x01'");
    expect(pyRepr('café')).toBe("'café'");
  });
  it('== and .0f', () => {
    expect(pyEq([1, 'a'], [pyFloat(1), 'a'])).toBe(true);
    expect(pyEq({ a: 1 }, { a: '1' })).toBe(false);
    expect([0.5, 1.5, 2.5, -0.4, 65, 99.6].map(pyFormat0f)).toEqual(['0', '2', '2', '-0', '65', '100']);
  });
  it('normalize_str / normalize_arg', () => {
    expect(normalizeStr('  Crème-Brûlée!  ')).toBe('cremebrulee');
    expect(normalizeStr('a  b’s')).toBe('a  b’s');
    expect(normalizeArg(['a', 'b'])).toBe('a b');
    expect(normalizeArg(null)).toBe('none');
    expect(normalizeArg('  done')).toBe(normalizeArg('Done!'));
  });
  it('normpath (appendix C)', () => {
    expect(normpath('')).toBe('.');
    expect(normpath('a/./b//')).toBe('a/b');
    expect(normpath('/tmp/../tmp/f')).toBe('/tmp/f');
    expect(normpath('a/../../b')).toBe('../b');
    expect(normpath('/..')).toBe('/');
    expect(normpath('//x')).toBe('//x');
    expect(normpath('///x/')).toBe('/x');
  });
});
