// The cloud drive's tree (apps/drive-tree.ts): built in slices by the daemon, the same tree as
// the one-shot build, finished when a command reaches for the drive's files and at the end of a
// run, and not waited for by commands that never touch the drive.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { initWorld, MemoryStates } from '../../../agent-image/src/apps/index.js';
import { composeWorld } from '../../../agent-image/src/main/compose/compose-world.js';
import { settingsFromEnv } from '../../../agent-image/src/world/config.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'gaia2-drive-'));
const SIM = () => ({ simTime: '2025-10-09 09:00:00' });

/** A Files state with `n` folders of three files each (one nested folder per folder). */
function filesState(n: number) {
  const children = Array.from({ length: n }, (_, i) => ({
    name: `folder_${i}`,
    type: 'directory',
    children: [
      { name: 'a.txt', type: 'file' },
      { name: 'sub', type: 'directory', children: [{ name: 'b.txt', type: 'file' }] },
      { name: 'c.txt', type: 'file' },
    ],
  }));
  return { files: { name: 'root', type: 'directory', children } };
}
const scenario = (n: number): { apps: Array<{ name: string; class_name: string; app_state: object }>; events: unknown[] } => ({
  apps: [
    { name: 'Files', class_name: 'Files', app_state: filesState(n) },
    { name: 'Contacts', class_name: 'ContactsApp', app_state: { contacts: {} } },
  ],
  events: [],
});

function listing(root: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const dir = statSync(p).isDirectory();
      out.push(`${relative(root, p)}${dir ? '/' : ''}`);
      if (dir) walk(p);
    }
  };
  walk(root);
  return out;
}

describe('the cloud drive tree', () => {
  it('built in the background is the tree the one-shot build makes, once finished', async () => {
    const once = tmp();
    const r1 = await initWorld(scenario(50), once);
    expect(r1.drive).toBeUndefined(); // no daemon: built before initWorld returns
    const lazy = tmp();
    const r2 = await initWorld(scenario(50), lazy, { states: new MemoryStates() });
    expect(r2.drive!.done).toBe(false);
    r2.drive!.finish();
    expect(r2.drive!.done).toBe(true);
    const want = listing(join(once, 'filesystem'));
    expect(want).toHaveLength(50 * 5);
    expect(listing(join(lazy, 'filesystem'))).toEqual(want);
  });

  it('keeps a file already there (a universe chain carried it) and makes the missing ones empty', async () => {
    const dir = tmp();
    mkdirSync(join(dir, 'filesystem', 'folder_0'), { recursive: true });
    writeFileSync(join(dir, 'filesystem', 'folder_0', 'a.txt'), 'written in the scenario before');
    await initWorld(scenario(2), dir);
    expect(readFileSync(join(dir, 'filesystem', 'folder_0', 'a.txt'), 'utf8')).toBe('written in the scenario before');
    expect(readFileSync(join(dir, 'filesystem', 'folder_0', 'c.txt'), 'utf8')).toBe('');
    expect(readFileSync(join(dir, 'filesystem', 'folder_1', 'sub', 'b.txt'), 'utf8')).toBe('');
  });

  it('finishes on its own between other work', async () => {
    const dir = tmp();
    const { drive } = await initWorld(scenario(200), dir, { states: new MemoryStates() });
    for (let i = 0; i < 2000 && !drive!.done; i++) await new Promise((r) => setImmediate(r));
    expect(drive!.done).toBe(true);
    expect(listing(join(dir, 'filesystem'))).toHaveLength(200 * 5);
  });

  it('a command of another app does not wait for it; a drive command and the end of the run do', async () => {
    const settings = settingsFromEnv({ GAIA2_AGENT: 'scripted', GAIA2_SCRIPT: '[]' });
    const stateDir = tmp();
    const { world } = await composeWorld({ scenario: scenario(300), stateDir, settings });
    const fs = join(stateDir, 'filesystem');
    const contacts = await world.apps.cli(['contacts', 'get-contacts'], SIM);
    expect(contacts.exitCode, contacts.stderr).toBe(0);
    expect(count(fs)).toBeLessThan(300 * 5);
    const ls = await world.apps.cli(['cloud-drive', 'ls', '--path', '/folder_299/sub'], SIM);
    expect(ls.exitCode, ls.stderr).toBe(0);
    expect(ls.stdout).toContain('b.txt');
    expect(count(fs)).toBe(300 * 5);

    const other = tmp();
    const w2 = (await composeWorld({ scenario: scenario(300), stateDir: other, settings })).world;
    w2.fail('test: the end of the run');
    expect(listing(join(other, 'filesystem'))).toHaveLength(300 * 5);
  });
});

// The apps that attach drive files (emails, chats, messages) wait for the tree only when a
// command of theirs really reads or writes under the drive root (AppContext.fsRoot).
describe('the cloud drive tree and the attachment apps', () => {
  const N = 600;
  /** The entry the tree builds last: an attachment command sees it only if the tree is whole. */
  const LAST = `folder_${N - 1}/c.txt`;
  const mailAndChat = () => {
    const emails = golden('scenarios/ambiguity/ambig_email_forward_invoice.json', 'Emails');
    const messages = golden('scenarios/ambiguity/ambig_messages_which_hana.json', 'Messages');
    const sc = scenario(N);
    sc.apps.push(emails, messages);
    return sc;
  };
  const booted = async () => {
    const stateDir = tmp();
    const settings = settingsFromEnv({ GAIA2_AGENT: 'scripted', GAIA2_SCRIPT: '[]' });
    const { world } = await composeWorld({ scenario: mailAndChat(), stateDir, settings });
    return { world, fs: join(stateDir, 'filesystem') };
  };
  const ENV = () => ({ simTime: '2025-10-09 09:00:00', eventId: 'Event-ENV-test' });

  it('plain email, chat and messages commands and ENV events do not finish it', async () => {
    const { world, fs } = await booted();
    const runs = [
      await world.apps.cli(['emails', 'list-emails', '--limit', '5'], SIM),
      await world.apps.cli(['emails', 'send-email', '--recipients', '["a@example.com"]', '--subject', 's', '--content', 'c'], SIM),
      await world.apps.cli(['messages', 'list-recent-conversations'], SIM),
      await world.apps.cli(['messages', 'send-message', '--user-id', '1065e2b35fe8db16dadd67ab84f6b7e1', '--content', 'hi'], SIM),
      await world.apps.action('Emails', 'create_and_add_email', { sender: 'b@example.com', subject: 's', content: 'c', folder_name: 'INBOX' }, ENV),
    ];
    for (const r of runs) expect(r.exitCode, r.stderr).toBe(0);
    expect(count(fs)).toBeLessThan(N * 5);
  });

  it('an attachment command started on a partial tree sees it whole (CLI and ENV/oracle actions)', async () => {
    const { world, fs } = await booted();
    expect(count(fs)).toBeLessThan(N * 5);
    const sent = await world.apps.cli(['emails', 'send-email', '--recipients', '["a@example.com"]', '--subject', 's', '--content', 'c', '--attachment-paths', JSON.stringify([LAST])], SIM);
    expect(sent.exitCode, sent.stderr).toBe(0);
    expect(count(fs)).toBe(N * 5);

    const second = await booted();
    expect(count(second.fs)).toBeLessThan(N * 5);
    const msg = await second.world.apps.action('Messages', 'send_message', { user_id: '1065e2b35fe8db16dadd67ab84f6b7e1', content: 'see file', attachment_path: LAST }, ENV);
    expect(msg.exitCode, msg.stderr).toBe(0);
    expect(count(second.fs)).toBe(N * 5);
  });

  it('an attachment saved to the drive lands in the whole tree', async () => {
    const { world, fs } = await booted();
    expect(count(fs)).toBeLessThan(N * 5);
    const r = await world.apps.cli(['emails', 'download-attachments', '--email-id', '767fbe0459e75320577ff64b088707f9', '--path-to-save', `folder_${N - 1}/`], SIM);
    expect(r.exitCode, r.stderr).toBe(0);
    // The tree, whole, plus the saved file in the folder built last.
    expect(count(fs)).toBe(N * 5 + 1);
    expect(listing(fs)).toContain(`folder_${N - 1}/invoice_4471.txt`);
  });
});

/** One app of a golden scenario. */
function golden(rel: string, name: string): { name: string; class_name: string; app_state: Record<string, unknown> } {
  const sc = JSON.parse(readFileSync(join(import.meta.dirname, '../../fixtures/golden', rel), 'utf8')) as { apps: Array<{ name: string; class_name: string; app_state: Record<string, unknown> }> };
  return sc.apps.find((a) => a.name === name)!;
}

/** Entries under the drive root so far (0 before the root exists). */
function count(fs: string): number {
  try {
    return listing(fs).length;
  } catch {
    return 0;
  }
}
