// GET /carry over real HTTP: the image's adapter streams the carried state dir and home (one
// filter, contract/carry.ts), the runner's client reads them back as trees, and a unit the
// backend cannot read (a Pod) gives its carry through it; the next unit's home then goes to
// the image's upload folder when the backend writes no files at create.
import { chmodSync, closeSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAdapterServer, fileBackend, listen, openCarriedFile, openCarry } from '../../../agent-image/src/adapter/index.js';
import { CONTAINER_PATHS } from '@gaia2/contract/paths';
import { ROUTES } from '@gaia2/contract/routes';
import type { ContainerHandle } from '../../../runner/src/engine/index.js';
import { AdapterClient } from '../../../runner/src/run/adapter-client.js';
import { homeFiles, takeCarry } from '../../../runner/src/sequences/carry.js';

const servers: Array<{ close(): void }> = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

function unitFiles() {
  const state = mkdtempSync(join(tmpdir(), 'carry-state-'));
  const home = mkdtempSync(join(tmpdir(), 'carry-home-'));
  writeFileSync(join(state, 'contacts.json'), '{"contacts": {"a": 1.0}}');
  for (const own of ['daemon_status.json', 'events.jsonl', 'user_details.json']) writeFileSync(join(state, own), '{}');
  mkdirSync(join(state, 'filesystem', 'Documents'), { recursive: true });
  writeFileSync(join(state, 'filesystem', 'Documents', 'plan.txt'), 'step 2');
  mkdirSync(join(home, 'notes'));
  writeFileSync(join(home, 'notes', 'private.txt'), 'mine', { mode: 0o600 });
  chmodSync(join(home, 'notes', 'private.txt'), 0o600);
  symlinkSync('notes/private.txt', join(home, 'latest'));
  mkdirSync(join(home, '.ssh'));
  writeFileSync(join(home, '.ssh', 'id_ed25519'), 'key');
  writeFileSync(join(home, '.netrc'), 'machine x password y');
  mkdirSync(join(home, 'bin'));
  writeFileSync(join(home, 'bin', 'contacts'), '#!/bin/sh');
  return { state, home };
}

async function adapter(token: string | null, dirs: { state: string; home: string }) {
  const { server } = createAdapterServer({ backend: fileBackend('/nonexistent/daemon_status.json'), token, carryTar: () => openCarry(dirs.state, dirs.home) });
  const port = await listen(server, 0, '127.0.0.1');
  servers.push({ close: () => (server.closeAllConnections(), server.close()) });
  return `http://127.0.0.1:${port}`;
}

describe('GET /carry', () => {
  it('streams exactly the carried state and home, with kinds, modes and contents', async () => {
    const dirs = unitFiles();
    const c = await new AdapterClient(await adapter('tok-c', dirs), 'tok-c').carry();
    expect(c.state.map((e) => `${e.type} ${e.path}`).sort()).toEqual(['dir filesystem', 'dir filesystem/Documents', 'file contacts.json', 'file filesystem/Documents/plan.txt']);
    expect(c.home.map((e) => `${e.type} ${e.path}`).sort()).toEqual(['dir notes', 'file notes/private.txt', 'symlink latest']);
    const priv = c.home.find((e) => e.path === 'notes/private.txt')!;
    expect([priv.content!.toString(), priv.mode]).toEqual(['mine', 0o600]);
    expect(c.home.find((e) => e.path === 'latest')!.linkname).toBe('notes/private.txt');
    expect(c.state.find((e) => e.path === 'filesystem/Documents/plan.txt')!.content!.toString()).toBe('step 2');
    expect(c.unreadable).toEqual([]);
  });

  it('names what it cannot read instead of failing the carry', async () => {
    const dirs = unitFiles();
    // (a home that cannot be listed: a file in its place fails even root's read)
    const home = join(dirs.home, 'notes', 'private.txt');
    const c = await new AdapterClient(await adapter('tok-c', { state: dirs.state, home }), 'tok-c').carry();
    expect(c.unreadable).toEqual(['home']);
    expect(c.home).toEqual([]);
    expect(c.state.some((e) => e.path === 'contacts.json')).toBe(true);
  });

  it('is the runner’s only: a wrong token is refused, and a container without one serves it to nobody', async () => {
    const dirs = unitFiles();
    const url = await adapter('tok-c', dirs);
    expect((await fetch(`${url}${ROUTES.carry}`, { headers: { authorization: 'Bearer nope' } })).status).toBe(401);
    expect((await fetch(`${await adapter(null, dirs)}${ROUTES.carry}`)).status).toBe(403);
    await expect(new AdapterClient(url, 'wrong').carry()).rejects.toThrow(/HTTP 401/);
  });

  it('carries a unit its backend cannot read (a Pod: no readTree) through the image', async () => {
    const dirs = unitFiles();
    const client = new AdapterClient(await adapter('tok-c', dirs), 'tok-c');
    const pod = { id: 'p', name: 'p' } as ContainerHandle;
    const carried = await takeCarry(pod, client);
    expect([...carried.states.keys()]).toEqual(['contacts.json']);
    expect(carried.drive.map((e) => e.path).sort()).toEqual(['', 'Documents', 'Documents/plan.txt']);
    expect(carried.home.map((e) => e.path).sort()).toEqual(['latest', 'notes', 'notes/private.txt']);
    // Written late (no files at create): the home as one tar at the image's upload path, the
    // drive where the world builds it.
    const late = (await homeFiles(carried, true)).map((f) => `${f.path} ${f.uid ?? '-'}`);
    expect(late).toContain(`${CONTAINER_PATHS.carriedHomeTar} -`);
    expect(late).toContain(`${CONTAINER_PATHS.stateDir}/filesystem/Documents/plan.txt ${process.getuid?.() ?? 0}`);
    expect(late.some((p) => p.startsWith(`${CONTAINER_PATHS.agentHome}/`))).toBe(false);
  });
});

describe("the carry's file opener (the agent may swap what it owns for a link while the daemon reads)", () => {
  it('opens a regular file inside the folder; never a link, nor a file whose real path left the folder', () => {
    const { home, state } = unitFiles();
    const meta = { name: 'home/x', mtime: 0, mode: 0o644, uid: 0, gid: 0 };
    const ok = openCarriedFile(home, join(home, 'notes', 'private.txt'), meta);
    expect(ok?.size).toBe(4);
    closeSync(ok!.fd);
    // the last component a link: not followed
    expect(openCarriedFile(home, join(home, 'latest'), meta)).toBeNull();
    // reached through a folder swapped for a link to the daemon's own state: refused
    symlinkSync(state, join(home, 'swapped'));
    expect(openCarriedFile(home, join(home, 'swapped', 'contacts.json'), meta)).toBeNull();
  });
});

