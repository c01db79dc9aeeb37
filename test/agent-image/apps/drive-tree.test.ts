// The cloud drive's tree (apps/drive-tree.ts): built in slices by the daemon, the same tree as
// the one-shot build, finished before any command that uses the drive and at the end of a run,
// and not waited for by commands of other apps.
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { initWorld, MemoryStates } from '../../../agent-image/src/apps/index.js';
import { usesDrive } from '../../../agent-image/src/apps/drive-users.js';
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
const scenario = (n: number) => ({
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
    const count = () => {
      try {
        return listing(fs).length;
      } catch {
        return 0;
      }
    };
    const contacts = await world.apps.cli(['contacts', 'get-contacts'], SIM);
    expect(contacts.exitCode, contacts.stderr).toBe(0);
    expect(count()).toBeLessThan(300 * 5);
    const ls = await world.apps.cli(['cloud-drive', 'ls', '--path', '/folder_299/sub'], SIM);
    expect(ls.exitCode, ls.stderr).toBe(0);
    expect(ls.stdout).toContain('b.txt');
    expect(count()).toBe(300 * 5);

    const other = tmp();
    const w2 = (await composeWorld({ scenario: scenario(300), stateDir: other, settings })).world;
    w2.fail('test: the end of the run');
    expect(listing(join(other, 'filesystem'))).toHaveLength(300 * 5);
  });

  it('is used by the drive, emails and messaging apps, by CLI or scenario name', () => {
    for (const cli of ['cloud-drive', 'emails', 'chats', 'messages', '/usr/bin/emails', 'nosuchapp']) expect(usesDrive({ cli }), cli).toBe(true);
    for (const cli of ['contacts', 'calendar', 'shopping', 'cabs', 'city', 'rent-a-flat']) expect(usesDrive({ cli }), cli).toBe(false);
    for (const app of ['Files', 'SandboxLocalFileSystem', 'EmailClientV2', 'Chats', 'MessagingAppV2', 'Unknown']) expect(usesDrive({ app }), app).toBe(true);
    for (const app of ['ContactsApp', 'CalendarApp', 'CabApp', 'CityApp']) expect(usesDrive({ app }), app).toBe(false);
  });
});
