// The one door from app code to the drive's files (AppContext.fsRoot): WorldContext.beforeDrive
// runs when a command reads the root, and only then; a failure there fails the command cleanly.
//
// A command's answer is serialised once: the events line holds the printed answer's compact
// text (a PyJsonText), byte for byte what serialising the returned value afresh gives.
import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { initWorld, runCli, type WorldContext } from '../../../../agent-image/src/apps/index.js';
import { makeAppContext } from '../../../../agent-image/src/apps/framework/dispatch.js';
import { appForCli } from '../../../../agent-image/src/apps/catalog.js';
import { PyJsonText, formatEventLine, parsePyJson, pyFloat, pyJsonValue } from '../../../../agent-image/src/contract/pyjson.js';
import { makeWorld } from '../world.js';

const SIM = '2025-10-09 09:00:00';

/** A world on state files (no daemon) with a drive holding Documents/a.txt, and emails. */
async function fileWorld(): Promise<string> {
  const stateDir = mkdtempSync(join(tmpdir(), 'gaia2-dispatch-'));
  const files = { files: { name: 'root', type: 'directory', children: [{ name: 'Documents', type: 'directory', children: [{ name: 'a.txt', type: 'file' }] }] } };
  const emails = { user_email: 'me@example.com', view_limit: 5, folders: { INBOX: { folder_name: 'INBOX', emails: [] }, SENT: { folder_name: 'SENT', emails: [] } } };
  await initWorld({ apps: [{ name: 'Files', class_name: 'Files', app_state: files }, { name: 'Emails', class_name: 'EmailClientV2', app_state: emails }] }, stateDir);
  return stateDir;
}

describe('AppContext.fsRoot', () => {
  it('asks beforeDrive each time it is read, and not before', () => {
    let asked = 0;
    const ctx = makeAppContext(appForCli('emails')!, { stateDir: '/s', simTime: SIM, beforeDrive: () => void asked++ }, 0);
    expect(asked).toBe(0);
    expect(ctx.fsRoot).toBe(join('/s', 'filesystem'));
    expect(ctx.fsRoot).toBe(join('/s', 'filesystem'));
    expect(asked).toBe(2);
    const custom = makeAppContext(appForCli('cloud-drive')!, { stateDir: '/s', simTime: SIM, fsRoot: '/drive' }, 0);
    expect(custom.fsRoot).toBe('/drive');
  });

  it('is reached by drive and attachment commands, not by plain ones', async () => {
    const stateDir = await fileWorld();
    const calls: string[] = [];
    const run = async (argv: string[]) => {
      let asked = false;
      const r = await runCli(argv, { stateDir, simTime: SIM, beforeDrive: () => void (asked = true) });
      expect(r.exitCode, `${argv.join(' ')}: ${r.stderr}`).toBe(0);
      if (asked) calls.push(argv.slice(0, 2).join(' '));
    };
    await run(['emails', 'list-emails']);
    await run(['emails', 'send-email', '--recipients', '["a@example.com"]', '--subject', 's', '--content', 'c']);
    await run(['emails', 'send-email', '--recipients', '["a@example.com"]', '--subject', 's', '--content', 'c', '--attachment-paths', '["Documents/a.txt"]']);
    await run(['cloud-drive', 'ls', '--path', 'Documents']);
    expect(calls).toEqual(['emails send-email', 'cloud-drive ls']);
  });

  it('a drive that cannot be made fails the command that needs it, naming why, and changes nothing', async () => {
    const stateDir = await fileWorld();
    const ctx: WorldContext = {
      stateDir,
      simTime: SIM,
      beforeDrive: () => {
        throw new Error("cannot build the cloud drive's tree: disk full");
      },
    };
    const r = await runCli(['emails', 'send-email', '--recipients', '["a@example.com"]', '--subject', 's', '--content', 'c', '--attachment-paths', '["Documents/a.txt"]'], ctx);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('disk full');
    expect(r.events).toEqual([]);
    const sent = await runCli(['emails', 'list-emails', '--folder-name', 'SENT'], ctx);
    expect(sent.exitCode, sent.stderr).toBe(0);
    expect(JSON.parse(sent.stdout)).toMatchObject({ emails: [] });
  });
});

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
