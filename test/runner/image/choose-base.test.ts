// The base image choice on a fresh machine, over the answers podman and Docker really gave
// without a registry: no base held → the pull fails → the offline root filesystem is imported
// through the API as the offline base. With a base already held, nothing is pulled or imported.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DockerApiEngine } from '../../../runner/src/engine/docker-api.js';
import { chooseBaseImage, OFFLINE_BASE, PUBLIC_BASE } from '../../../runner/src/image/index.js';
import { startEngineReplay, type EngineReplay, type RecordedRequest } from '../../helpers/engine-replay.js';

let replay: EngineReplay | undefined;
afterEach(async () => {
  await replay?.close();
  replay = undefined;
});
const path = (r: RecordedRequest) => decodeURIComponent(r.url.pathname).replace(/^\/v[\d.]+/, '');
const isImport = (r: RecordedRequest) => r.method === 'POST' && r.url.searchParams.get('fromSrc') === '-';
const isPull = (r: RecordedRequest) => r.method === 'POST' && r.url.searchParams.has('fromImage');

describe.each(['podman', 'docker'] as const)('chooseBaseImage on recorded %s answers', (kind) => {
  it('no base, failed pull → the offline root filesystem imported through the engine', async () => {
    replay = await startEngineReplay(kind, (r, earlier) => {
      if (isPull(r)) return 'pull-no-registry';
      if (isImport(r)) return 'import-ok';
      if (path(r) === `/images/${OFFLINE_BASE}/json`) return earlier.some(isImport) ? 'inspect-imported' : 'inspect-missing';
      if (path(r) === `/images/${PUBLIC_BASE}/json`) return 'inspect-missing';
      return null;
    });
    const engine = new DockerApiEngine({ socketPath: replay.socketPath, source: 'replay' });
    const tar = join(mkdtempSync(join(tmpdir(), 'gaia2-rootfs-')), 'rootfs.tar');
    writeFileSync(tar, 'a root filesystem tar');
    const log: string[] = [];
    let made = 0;
    const base = await chooseBaseImage(engine.images!, '/nonexistent', (l) => log.push(l), async () => (made++, tar));
    expect(base).toBe(OFFLINE_BASE);
    expect(made).toBe(1);
    const order = replay.requests.filter((r) => !path(r).endsWith('/_ping')).map((r) => (isPull(r) ? 'pull' : isImport(r) ? 'import' : `inspect ${path(r)}`));
    expect(order).toEqual([
      `inspect /images/${OFFLINE_BASE}/json`,
      `inspect /images/${PUBLIC_BASE}/json`,
      'pull',
      'import',
      `inspect /images/${OFFLINE_BASE}/json`,
    ]);
    const imp = replay.requests.find(isImport)!;
    expect(imp.url.searchParams.get('repo')).toBe(OFFLINE_BASE);
    expect(imp.url.searchParams.getAll('changes')).toEqual(['CMD ["/bin/bash"]']);
    expect(imp.body.equals(readFileSync(tar))).toBe(true);
    expect(log.join('\n')).toMatch(/failed: .*registry-1\.docker\.io/);
  });

  it('a base the engine holds is used as it is', async () => {
    replay = await startEngineReplay(kind, (r) => (path(r) === `/images/${OFFLINE_BASE}/json` ? 'inspect-imported' : null));
    const engine = new DockerApiEngine({ socketPath: replay.socketPath, source: 'replay' });
    const base = await chooseBaseImage(engine.images!, '/nonexistent', () => {}, async () => {
      throw new Error('the root filesystem must not be needed');
    });
    expect(base).toBe(OFFLINE_BASE);
    expect(replay.requests.some((r) => r.method === 'POST')).toBe(false);
  });
});
