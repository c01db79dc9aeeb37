import { describe, expect, it } from 'vitest';
import { topLevelMembers } from '../../../../runner/src/viewer/model/json-members.js';

const members = (text: string, ...keys: string[]) => topLevelMembers(Buffer.from(text), new Set(keys));

describe('top-level members of a JSON object', () => {
  it('returns the text of the members asked for, whatever their place and content', () => {
    const doc = {
      apps: [{ name: 'Emails', app_state: { s: 'a "quoted" {brace} [bracket] \\ back\\\\slash ünï 𝄞', n: [1, -2.5e3, true, null] } }],
      events: [{ event_id: 'e1', action: { args: [{ name: 'content', value: '}]"' }] } }],
      tail: 1.0,
    };
    for (const text of [JSON.stringify(doc), JSON.stringify(doc, null, 2)]) {
      const got = members(text, 'events', 'tail', 'absent')!;
      expect(JSON.parse(got.get('events')!)).toEqual(doc.events);
      expect(got.get('tail')).toBe('1');
      expect(got.has('absent')).toBe(false);
    }
    expect(members('\ufeff { "events" : [ ] , "x":"y" } ', 'events')!.get('events')).toBe('[ ]');
    expect(members('{}', 'events')!.size).toBe(0);
    expect(members('{"k\\u0065y": 5}', 'key')!.get('key')).toBe('5');
  });

  it('gives null for a document that is not a well-formed object', () => {
    for (const bad of ['[1]', '', '{"events": [1, 2}', '{"a" 1}', '{"a": "open}', '{"a": 1', '{"a": 1 "b": 2}']) expect(members(bad, 'events')).toBeNull();
  });
});
