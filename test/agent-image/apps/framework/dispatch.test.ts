// A command's answer is serialised once: the events line holds the printed answer's compact
// text (a PyJsonText), byte for byte what serialising the returned value afresh gives.
import { describe, expect, it } from 'vitest';
import { PyJsonText, formatEventLine, parsePyJson, pyFloat, pyJsonValue } from '../../../../agent-image/src/contract/pyjson.js';
import { makeWorld } from '../world.js';

const mail = (id: string, ts: number, subject: string) => ({
  sender: 'ana@x.example', recipients: ['me@x.example'], subject, content: 'line one\nline two, "quoted" — é', email_id: id, parent_id: null, cc: [], attachments: {}, timestamp: pyFloat(ts), is_read: false,
});
const STATE = {
  user_email: 'me@x.example',
  view_limit: 5,
  folders: {
    INBOX: { folder_name: 'INBOX', emails: [mail('i1', 100, 'Trip, day 1'), mail('i2', 300, 'Ünïcode ✓'), mail('i3', 200, '')] },
    SENT: { folder_name: 'SENT', emails: [] },
    TRASH: { folder_name: 'TRASH', emails: [] },
  },
};

describe('runAppCli: the logged return value', () => {
  it('is the printed answer as compact text when the command prints what it returns', async () => {
    const w = await makeWorld([['Emails', 'EmailClientV2', STATE]]);
    const r = await w.run('emails', 'search-emails', '--query', 'x.example', '--folder-name', 'INBOX');
    expect(r.exitCode, r.stderr).toBe(0);
    const ret = r.events[0]!.ret;
    expect(ret).toBeInstanceOf(PyJsonText);
    const printed = parsePyJson(r.stdout) as Array<{ email_id: string }>;
    expect(printed.map((e) => e.email_id)).toEqual(['i2', 'i3', 'i1']);
    // The line is what serialising the value anew writes, floats, escapes and all.
    expect(formatEventLine(r.events[0]!)).toBe(formatEventLine({ ...r.events[0]!, ret: printed }));
    expect(pyJsonValue(ret)).toEqual(printed);
    expect(w.line(r)).toContain('"subject": "\\u00dcn\\u00efcode \\u2713", "content": "line one\\nline two, \\"quoted\\" \\u2014 \\u00e9"');
  });

  it('is serialised on its own when it differs from what is printed', async () => {
    const w = await makeWorld([['Emails', 'EmailClientV2', STATE]]);
    const r = await w.run('emails', 'delete-email', '--email-id', 'i1', '--folder-name', 'INBOX');
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ status: 'ok', email_id: 'i1' });
    expect((r.events[0]!.ret as PyJsonText).text).toBe('"i1"');
    expect(w.line(r)).toContain('"w": true, "ret": "i1"');
  });
});
