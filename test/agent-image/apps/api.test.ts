// The public API around the apps: initWorld, resolveScenarioTools, cliSpecs, runAction.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_NAMES, cliSpecs, initWorld, resolveScenarioTools, runAction } from '../../../agent-image/src/apps/index.js';
import { normalizeAppName } from '../../../agent-image/src/apps/framework/state.js';
import { CLOCK } from './world.js';

const tmp = () => join(mkdtempSync(join(tmpdir(), 'gaia2-api-')), 'state');

describe('initWorld', () => {
  it('writes state files under the reference names, the class map and an empty events log', async () => {
    const dir = tmp();
    const text = '{"apps": [{"name": "Mail", "class_name": "EmailClientV2", "app_state": {"view_limit": 5, "x": 1.0}}, {"name": "Chats", "class_name": "MessagingAppV2"}, {"name": "AgentUserInterface"}, {"class_name": "NoName"}]}';
    const r = await initWorld(text, dir);
    expect(r).toEqual({ apps: ['Mail', 'Chats', 'AgentUserInterface'], warnings: ['Warning: Skipping app entry with no name'] });
    expect(readFileSync(join(dir, 'email_client_v2.json'), 'utf8')).toBe('{\n  "view_limit": 5,\n  "x": 1.0\n}\n');
    expect(JSON.parse(readFileSync(join(dir, 'chats.json'), 'utf8'))).toEqual({});
    expect(existsSync(join(dir, 'agent_user_interface.json'))).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, 'app_class_map.json'), 'utf8'))).toEqual({ Chats: 'MessagingAppV2' });
    expect(readFileSync(join(dir, 'events.jsonl'), 'utf8')).toBe('');
  });

  it('accepts a bare list, warns on no apps, and builds the cloud drive from backing files', async () => {
    expect((await initWorld({ apps: [] }, tmp())).warnings).toEqual(['Warning: No apps found in scenario JSON']);
    const backing = mkdtempSync(join(tmpdir(), 'gaia2-backing-'));
    mkdirSync(join(backing, 'demo'), { recursive: true });
    writeFileSync(join(backing, 'demo/a.txt'), 'A');
    const dir = tmp();
    const files = { files: { name: 'root', type: 'directory', children: [{ name: 'Docs', type: 'directory', children: [{ name: 'a.txt', real_path: 'demo/a.txt' }, { name: 'b.txt', real_path: 'demo/missing.txt' }] }, { name: '../escape.txt' }] } };
    await initWorld([{ name: 'Files', class_name: 'SandboxLocalFileSystem', app_state: files }], dir, { fsBackingDir: backing });
    expect(readFileSync(join(dir, 'filesystem/Docs/a.txt'), 'utf8')).toBe('A');
    expect(readFileSync(join(dir, 'filesystem/Docs/b.txt'), 'utf8')).toBe('');
    expect(existsSync(join(dir, 'escape.txt'))).toBe(false);
    expect(existsSync(join(dir, 'files.json'))).toBe(true);
  });

  it('names state files like normalize_app_name', () => {
    expect(['Calendar', 'EmailClientV2', 'MessagingAppV2', 'RentAFlat', 'CabApp', 'AgentUserInterface', 'InternalContacts'].map(normalizeAppName)).toEqual([
      'calendar', 'email_client_v2', 'messaging_app_v2', 'rent_a_flat', 'cab_app', 'agent_user_interface', 'internal_contacts',
    ]);
  });
});

describe('resolveScenarioTools and cliSpecs', () => {
  it('keeps the binaries of the scenario apps only', () => {
    const r = resolveScenarioTools({ apps: [{ name: 'Messages', class_name: 'MessagingAppV2' }, { name: 'Chats', class_name: 'MessagingAppV2' }, { name: 'MyMail', class_name: 'EmailClientV2' }, { name: 'SystemApp' }] });
    expect(r.tools).toEqual({ messages: 'Messages', chats: 'Chat conversations', emails: 'Emails' });
    expect(r.remove).toEqual(CLI_NAMES.filter((c) => !['messages', 'chats', 'emails'].includes(c)).sort());
  });

  it('describes every command with ARE names, types and defaults', () => {
    const specs = cliSpecs();
    expect(specs.map((s) => s.cli)).toEqual([...CLI_NAMES]);
    const emails = specs.find((s) => s.cli === 'emails')!;
    const list = emails.commands.find((c) => c.name === 'list-emails')!;
    expect(list).toMatchObject({ fn: 'list_emails', write: false, hidden: false });
    expect(list.options[0]).toEqual({ name: 'folder_name', flag: '--folder-name', aliases: ['--folder'], type: 'text', required: false, default: 'INBOX', help: expect.any(String) });
    expect(emails.commands.find((c) => c.name === 'create-and-add-email')!.hidden).toBe(true);
  });
});

describe('runAction', () => {
  it('rejects unknown apps and functions with Click-style errors', async () => {
    const dir = tmp();
    await initWorld({ apps: [{ name: 'Calendar', class_name: 'CalendarApp', app_state: { events: {} } }] }, dir);
    const ctx = { stateDir: dir, simTime: CLOCK };
    expect(await runAction('Nope', 'x', {}, ctx)).toMatchObject({ exitCode: 2, stderr: "No app CLI for scenario app 'Nope'\n" });
    const r = await runAction('Calendar', 'fly_away', {}, ctx);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("No such command 'fly-away'.");
    const ok = await runAction('CalendarApp', 'get_calendar_events_from_to', { start_datetime: '2024-10-15 00:00:00', end_datetime: '2024-10-16 00:00:00', offset: 0, limit: 5 }, ctx);
    expect(ok.exitCode).toBe(0);
    expect(ok.events[0]!.args).toEqual({ start_datetime: '2024-10-15 00:00:00', end_datetime: '2024-10-16 00:00:00', offset: 0, limit: 5 });
  });
});

describe('runCli concurrency', () => {
  it('serialises overlapping commands on one state dir (no lost update)', async () => {
    const dir = tmp();
    await initWorld({ apps: [{ name: 'Calendar', class_name: 'CalendarApp', app_state: { events: {} } }] }, dir);
    const { runCli } = await import('../../../agent-image/src/apps/index.js');
    const runs = Array.from({ length: 8 }, (_, i) => runCli(['calendar', 'add-event', '--title', `E${i}`], { stateDir: dir, simTime: CLOCK }));
    const results = await Promise.all(runs);
    expect(results.every((r) => r.exitCode === 0)).toBe(true);
    const events = (JSON.parse(readFileSync(join(dir, 'calendar.json'), 'utf8')) as { events: object }).events;
    expect(Object.keys(events)).toHaveLength(8);
  });
});
