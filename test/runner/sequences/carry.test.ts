import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { carryIntoScenario, homeFiles, takeCarry, type CarriedState } from '../../../runner/src/sequences/carry.js';
import { isCarriedHomePath, isCarriedStateFile } from '@gaia2/contract/carry';
import { checkpointPath, readCheckpoint, writeCheckpoint } from '../../../runner/src/sequences/checkpoint.js';
import type { ContainerHandle, TreeEntry } from '../../../runner/src/engine/index.js';
import { extract } from 'tar-stream';
import { pipeline } from 'node:stream/promises';

const file = (path: string, text: string, uid = 1001): TreeEntry => ({ path, type: 'file', mode: 0o644, uid, gid: uid, content: Buffer.from(text) });

describe('takeCarry', () => {
  it('keeps the apps’ states and the home, less the run’s logs and credentials', async () => {
    const trees: Record<string, TreeEntry[]> = {
      '/var/gaia2/state': [
        file('contacts.json', '{"contacts": {}}'),
        file('daemon_status.json', '{}'),
        file('events.jsonl', ''),
        file('user_details.json', '{}'),
        { path: 'filesystem', type: 'dir', mode: 0o755, uid: 999, gid: 999 },
        file('filesystem/Documents/plan.txt', 'step 2', 999),
      ],
      '/home/agent': [file('notes.txt', 'remember'), { path: 'bin/contacts', type: 'symlink', mode: 0o777, uid: 0, gid: 0, linkname: '/x' }, file('.codex/auth.json', 'key'), file('.gaia2/session/id', 's'), file('.env', 'K=1')],
    };
    const unit = { readTree: async (dir: string) => trees[dir] ?? [] } as unknown as ContainerHandle;
    const c = await takeCarry(unit);
    expect([...c.states.keys()]).toEqual(['contacts.json']);
    expect(c.home.map((e) => e.path)).toEqual(['notes.txt']);
    // the cloud drive's files, relative to its root, the root itself as ''
    expect(c.drive.map((e) => e.path)).toEqual(['', 'Documents/plan.txt']);
    expect(c.drive[1]!.content!.toString()).toBe('step 2');
  });

  it('fails when neither the backend nor the image can read a unit', async () => {
    await expect(takeCarry({} as ContainerHandle)).rejects.toThrow(/neither this backend nor the image can read a unit's files/);
    await expect(takeCarry({} as ContainerHandle, null)).rejects.toThrow(/neither this backend nor the image/);
  });

  it('names the credential paths it leaves', () => {
    for (const p of ['.ssh/id_rsa', 'x/credentials.json', '.claude/.credentials.json', '.gemini/oauth_creds.json', 'a/server.pem']) expect(isCarriedHomePath(p)).toBe(false);
    for (const p of ['notes.txt', 'work/out.csv', '.codex/config.toml']) expect(isCarriedHomePath(p)).toBe(true);
    for (const p of ['contacts.json', 'Files.json']) expect(isCarriedStateFile(p)).toBe(true);
    for (const p of ['daemon_status.json', 'events.jsonl', 'filesystem/a.json']) expect(isCarriedStateFile(p)).toBe(false);
  });
});

describe('carryIntoScenario', () => {
  it('replaces the initial state of the apps the carry has, Python floats kept', () => {
    const scenario = '{"apps": [{"name": "Contacts", "app_state": {"n": 1}}, {"name": "EmailClientV2", "app_state": {"x": 1.0}}], "events": []}';
    const carried: CarriedState = { states: new Map([['contacts.json', Buffer.from('{\n  "n": 2, "f": NaN\n}\n')]]), home: [], drive: [] };
    const out = carryIntoScenario(scenario, carried, 's.json').toString();
    expect(out).toContain('"app_state": {"n": 2, "f": NaN}');
    expect(out).toContain('"app_state": {"x": 1.0}');
  });
});

describe('homeFiles', () => {
  it('writes the drive under the state dir, parents first, its owners as the world made them', async () => {
    const carried: CarriedState = {
      states: new Map(),
      home: [],
      drive: [file('d/x.txt', 'hi', 999), { path: 'd', type: 'dir', mode: 0o755, uid: 999, gid: 999 }, { path: '', type: 'dir', mode: 0o755, uid: 999, gid: 999 }],
    };
    const files = await homeFiles(carried);
    expect(files.map((f) => f.path)).toEqual(['/var/gaia2/state/filesystem', '/var/gaia2/state/filesystem/d', '/var/gaia2/state/filesystem/d/x.txt']);
    expect(files[0]).toMatchObject({ dir: true, uid: 999, gid: 999 });
    expect(files[2]).toMatchObject({ content: Buffer.from('hi'), uid: 999 });
  });

  it('writes parents first, owners kept', async () => {
    const carried: CarriedState = {
      drive: [],
      states: new Map(),
      home: [file('d/e/f.txt', 'x'), { path: 'd', type: 'dir', mode: 0o700, uid: 1001, gid: 1001 }, { path: 'd/e', type: 'dir', mode: 0o755, uid: 1001, gid: 1001 }, { path: 'l', type: 'symlink', mode: 0o777, uid: 1001, gid: 1001, linkname: 'd' }],
    };
    const files = await homeFiles(carried);
    expect(files.map((f) => f.path)).toEqual(['/home/agent/d', '/home/agent/l', '/home/agent/d/e', '/home/agent/d/e/f.txt']);
    expect(files[0]).toMatchObject({ dir: true, uid: 1000, gid: 1000, mode: 0o700 });
    expect(files[1]).toMatchObject({ linkname: 'd' });

    // late (no files at create): the home whole as one tar for the entrypoint, folders, links and modes kept
    const late = await homeFiles(carried, true);
    expect(late.map((f) => f.path)).toEqual(['/var/gaia2/carry-home.tar']);
    const headers: Array<[string, string, number, number, string | null]> = [];
    const x = extract();
    x.on('entry', (h, stream, next) => {
      headers.push([h.name.replace(/\/$/, ''), h.type ?? '', h.mode ?? 0, h.uid ?? -1, h.linkname ?? null]);
      stream.on('end', next);
      stream.resume();
    });
    await pipeline(Readable.from([late[0]!.content as Buffer]), x);
    expect(headers.sort()).toEqual([
      ['d', 'directory', 0o700, 1000, null],
      ['d/e', 'directory', 0o755, 1000, null],
      ['d/e/f.txt', 'file', 0o644, 1000, null],
      ['l', 'symlink', 0o777, 1000, 'd'],
    ]);
  });
});

describe('checkpoints', () => {
  it('round-trip the carried state, written whole under sequential_state/<chain>/<pos>_<id>.tar.gz', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ckpt-'));
    const path = checkpointPath(dir, 'u1', 0, 's/a');
    expect(path).toBe(join(dir, 'sequential_state', 'u1', '0_s_a.tar.gz'));
    const carried: CarriedState = { states: new Map([['contacts.json', Buffer.from('{}')]]), home: [{ path: 'w', type: 'dir', mode: 0o750, uid: 1001, gid: 1002 }, file('w/n.txt', 'hi')], drive: [{ path: '', type: 'dir', mode: 0o755, uid: 999, gid: 999 }, file('Documents/p.txt', 'd', 999)] };
    await writeCheckpoint(path, carried);
    expect(readdirSync(join(dir, 'sequential_state', 'u1'))).toEqual(['0_s_a.tar.gz']);
    const back = await readCheckpoint(path);
    expect(back!.states.get('contacts.json')!.toString()).toBe('{}');
    expect(back!.home).toEqual([
      { path: 'w', type: 'dir', mode: 0o750, uid: 1001, gid: 1002 },
      { path: 'w/n.txt', type: 'file', mode: 0o644, uid: 1001, gid: 1001, content: Buffer.from('hi') },
    ]);
    expect(back!.drive).toEqual([
      { path: '', type: 'dir', mode: 0o755, uid: 999, gid: 999 },
      { path: 'Documents/p.txt', type: 'file', mode: 0o644, uid: 999, gid: 999, content: Buffer.from('d') },
    ]);
    expect(await readCheckpoint(join(dir, 'none.tar.gz'))).toBeNull();
  });
});
