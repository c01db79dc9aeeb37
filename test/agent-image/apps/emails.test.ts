import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pyFloat } from '../../../agent-image/src/contract/pyjson.js';
import { expectFailure, json, makeWorld, usage } from './world.js';

const mail = (id: string, ts: number, extra: Record<string, unknown> = {}) => ({
  sender: 'priya@x.example', recipients: ['me@x.example'], subject: `S ${id}`, content: `body ${id}`, email_id: id, parent_id: null, cc: [], attachments: {}, timestamp: pyFloat(ts), is_read: false, ...extra,
});
const STATE = {
  user_email: 'me@x.example',
  view_limit: 5,
  folders: {
    INBOX: { folder_name: 'INBOX', emails: [mail('i1', 100.0), mail('i2', 300.0, { attachments: { 'a.txt': Buffer.from('hello').toString('base64') } }), mail('i3', 200.0)] },
    SENT: { folder_name: 'SENT', emails: [mail('s1', 50.0, { sender: 'me@x.example', recipients: ['priya@x.example'], parent_id: 'i1' })] },
    TRASH: { folder_name: 'TRASH', emails: [] },
  },
};
const world = () => makeWorld([['Emails', 'EmailClientV2', STATE]]);

describe('emails', () => {
  it('lists newest first with offset checks', async () => {
    const w = await world();
    const r = json(await w.run('emails', 'list-emails', '--offset', '1', '--limit', '1')) as { emails: Array<{ email_id: string }>; emails_range: number[] };
    expect(r.emails.map((e) => e.email_id)).toEqual(['i3']);
    expect(r.emails_range).toEqual([1, 2]);
    expectFailure(await w.run('emails', 'list-emails', '--offset', '-1'), 1, 'Offset must be non-negative\n');
    expectFailure(await w.run('emails', 'list-emails', '--offset', '4'), 1, 'Offset must be less than the number of emails\n');
    expectFailure(await w.run('emails', 'list-emails', '--folder', 'draft'), 1, 'Folder DRAFT not found\n');
    expect(JSON.parse(w.line(await w.run('emails', 'list-emails', '--folder', 'sent'))).args.folder_name).toBe('SENT');
  });

  it('marks emails read when opened; index and id errors', async () => {
    const w = await world();
    expect(json(await w.run('emails', 'get-email-by-index', '--idx', '0'))).toMatchObject({ email_id: 'i2', is_read: true });
    expectFailure(await w.run('emails', 'get-email-by-index', '--idx', '3'), 1, 'Email with index 3 does not exist\n');
    expectFailure(await w.run('emails', 'get-email-by-id', '--email-id', 'zz'), 1, 'Email with id zz does not exist\n');
    const saved = w.state('email_client_v2.json') as { folders: { INBOX: { emails: Array<{ email_id: string; is_read: boolean; timestamp: number }> } } };
    expect(saved.folders.INBOX.emails.map((e) => e.email_id)).toEqual(['i2', 'i3', 'i1']);
    expect(saved.folders.INBOX.emails[0]!.is_read).toBe(true);
    expect(readFileSync(join(w.stateDir, 'email_client_v2.json'), 'utf8')).toContain('"timestamp": 300.0');
  });

  it('validates JSON lists (usage errors) and addresses (exit 1)', async () => {
    const w = await world();
    expectFailure(await w.run('emails', 'send-email', '--recipients', 'a@b'), 2, usage('emails', 'send-email', 'Invalid value: Invalid JSON list: a@b'));
    expectFailure(await w.run('emails', 'send-email', '--recipients', '{"a": 1}'), 2, usage('emails', 'send-email', 'Invalid value: Expected a JSON list, got: dict'));
    expectFailure(await w.run('emails', 'send-email', '--recipients', '["a@b"]', '--cc', '["bob"]'), 1, "'bob' is not a valid email address for cc.\n");
    expectFailure(await w.run('emails', 'forward-email', '--email-id', 'i1', '--recipients', '["Bob"]'), 1, "'Bob' is not a valid email address for recipients.\n");
    expectFailure(await w.run('emails', 'send-email', '--recipients', '["a@b"]', '--attachment-paths', '["../../etc/passwd"]'), 1, 'Path escapes sandbox: ../../etc/passwd\n');
    expectFailure(await w.run('emails', 'send-email', '--recipients', '["a@b"]', '--attachment-paths', '["Docs/x.pdf"]'), 1, 'File does not exist: Docs/x.pdf\n');
  });

  it('sends with attachments from the cloud drive and logs list args', async () => {
    const w = await world();
    mkdirSync(join(w.stateDir, 'filesystem/Docs'), { recursive: true });
    writeFileSync(join(w.stateDir, 'filesystem/Docs/r.txt'), 'report');
    const r = await w.run('emails', 'send-email', '--recipients', '["a@b.example"]', '--subject', 'Hi', '--attachment-paths', '["~/../../Docs/r.txt"]');
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(w.line(r))).toMatchObject({ fn: 'send_email', args: { recipients: ['a@b.example'], subject: 'Hi', content: '', cc: [], attachment_paths: ['~/../../Docs/r.txt'] }, ret: w.ids[0] });
    const sent = json(await w.run('emails', 'get-email-by-id', '--email-id', w.ids[0]!, '--folder', 'SENT')) as Record<string, unknown>;
    expect(sent).toMatchObject({ sender: 'me@x.example', attachments: { 'r.txt': Buffer.from('report').toString('base64') }, timestamp: 1728975600 });
  });

  it('replies to the external correspondent of an own email, forwards, downloads', async () => {
    const w = await world();
    await w.run('emails', 'reply-to-email', '--email-id', 's1', '--folder-name', 'SENT', '--content', 'again');
    expect(json(await w.run('emails', 'get-email-by-id', '--email-id', w.ids[0]!, '--folder', 'SENT'))).toMatchObject({ recipients: ['priya@x.example'], subject: 'Re: S s1', parent_id: 's1' });
    await w.run('emails', 'forward-email', '--email-id', 'i2', '--recipients', '["z@z.example"]');
    expect(json(await w.run('emails', 'get-email-by-id', '--email-id', w.ids[1]!, '--folder', 'SENT'))).toMatchObject({ subject: 'FWD: S i2', content: '> body i2', parent_id: 'i2' });
    const d = json(await w.run('emails', 'download-attachments', '--email-id', 'i2', '--download-path', '/Downloads')) as { downloaded: string[] };
    expect(d.downloaded).toEqual([join(w.stateDir, 'filesystem/Downloads/a.txt')]);
    expect(readFileSync(d.downloaded[0]!, 'utf8')).toBe('hello');
    expectFailure(await w.run('emails', 'download-attachments', '--email-id', 'i2', '--folder-name', 'Trash'), 1, 'Email with id i2 does not exist in Trash\n');
  });

  it('moves and deletes into TRASH', async () => {
    const w = await world();
    expectFailure(await w.run('emails', 'move-email', '--email-id', 'i1', '--source-folder', 'sent', '--dest-folder', 'trash'), 1, 'Email with id i1 does not exist in sent\n');
    expectFailure(await w.run('emails', 'move-email', '--email-id', 'i1', '--source-folder', 'inbox', '--dest-folder', 'archive'), 1, 'Folder ARCHIVE not found\n');
    expect(JSON.parse(w.line(await w.run('emails', 'delete-email', '--email-id', 'i1')))).toMatchObject({ fn: 'delete_email', w: true, args: { folder_name: 'INBOX' } });
    expect((json(await w.run('emails', 'list-emails', '--folder', 'TRASH')) as { total_emails: number }).total_emails).toBe(1);
    expect((json(await w.run('emails', 'search-emails', '--query', 'BODY I3')) as Array<{ email_id: string }>).map((e) => e.email_id)).toEqual(['i3']);
  });

  it('runs the ENV commands and checks reply-to-email-from-user targets SENT', async () => {
    const w = await world();
    const a = await w.action('Emails', 'send_email_to_user_only', { sender: 'x@y.example', subject: 'Hello', content: 'c' }, 'Event-ENV-9');
    expect(JSON.parse(w.line(a))).toMatchObject({ app: 'EmailClientV2', fn: 'send_email_to_user_only', args: { sender: 'x@y.example', subject: 'Hello', content: 'c' }, event_id: 'Event-ENV-9' });
    expect(json(await w.run('emails', 'get-email-by-index', '--idx', '0'))).toMatchObject({ recipients: ['me@x.example'], subject: 'Hello' });
    const b = await w.action('EmailClientApp', 'create_and_add_email', { sender: 'q@y.example', recipients: ['me@x.example'], subject: 'T', folder_name: 'trash' });
    expect(JSON.parse(w.line(b)).args.folder_name).toBe('TRASH');
    expectFailure(await w.action('Mail', 'reply_to_email_from_user', { sender: 'p@y', email_id: 'i1' }), 1, 'Email with id i1 does not exist in SENT\n');
    const c = await w.action('Mail', 'reply_to_email_from_user', { sender: 'priya@x.example', email_id: 's1', content: 'ok' });
    expect(c.exitCode).toBe(0);
  });

  it('creates the default mailbox when there is no state file', async () => {
    const w = await makeWorld([['Calendar', 'CalendarApp', {}]]);
    const r = await w.run('emails', 'send-email', '--recipients', '["a@b.example"]');
    expect(r.exitCode).toBe(0);
    expect((w.state('email_client_v2.json') as { user_email: string }).user_email).toBe('user@example.com');
  });
});

describe('emails JSON-list parsing order', () => {
  it('reports Click errors before JSON-list errors, and lists in declaration order', async () => {
    const w = await makeWorld([['Emails', 'EmailClientV2', STATE]]);
    expectFailure(await w.run('emails', 'send-email', '--cc', 'bad', '--recipients', 'worse', 'extra'), 2, usage('emails', 'send-email', 'Got unexpected extra argument (extra)'));
    expectFailure(await w.run('emails', 'send-email', '--cc', 'bad', '--recipients', 'worse'), 2, usage('emails', 'send-email', 'Invalid value: Invalid JSON list: worse'));
  });
});
