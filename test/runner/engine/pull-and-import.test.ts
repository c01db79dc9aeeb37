// Pulls and imports over the wire, against the answers podman 4.3 and Docker 20.10 really gave
// on a machine without a registry (recorded in test/fixtures/engine-wire): podman answers a
// failed pull with 200 and an error item in the stream, Docker with 500; both must read as a
// failed pull. Imports send the root filesystem tar as the body, the tag inside `repo`.
import { afterEach, describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { DockerApiEngine } from '../../../runner/src/engine/docker-api.js';
import { readProgress, streamFailure } from '../../../runner/src/engine/progress-stream.js';
import { recordedResponse, startEngineReplay, type EngineReplay, type Route, type WireEngine } from '../../helpers/engine-replay.js';

const PUBLIC = 'docker.io/library/debian:bookworm-slim';
let replay: EngineReplay | undefined;
afterEach(async () => {
  await replay?.close();
  replay = undefined;
});

async function engineOn(kind: WireEngine, route: Route): Promise<DockerApiEngine> {
  replay = await startEngineReplay(kind, route);
  return new DockerApiEngine({ socketPath: replay.socketPath, source: `unix://${replay.socketPath}` });
}

const path = (r: { url: URL }) => decodeURIComponent(r.url.pathname).replace(/^\/v[\d.]+/, '');

describe('progress streams', () => {
  it("finds podman's in-stream pull error (answered with 200)", async () => {
    const r = recordedResponse('podman', 'pull-no-registry');
    expect(r.status).toBe(200);
    await expect(readProgress(Readable.from([r.body]))).rejects.toThrow(/pinging container registry registry-1\.docker\.io/);
  });

  it("finds Docker's in-stream error after progress items (answered with 200)", async () => {
    // Docker reports failures inside a 200 stream once it has begun (here: an import from a URL
    // serving a broken tar); its pull reports the same way once the registry answered.
    const r = recordedResponse('docker', 'import-from-url-bad-tar');
    expect(r.status).toBe(200);
    const seen: string[] = [];
    await expect(readProgress(Readable.from([r.body]), (i) => seen.push(i.status ?? 'error'))).rejects.toThrow(
      'Error processing tar file(exit status 1): unexpected EOF',
    );
    expect(seen).toEqual(['Downloading from http://127.0.0.1:18765/bad.tar', 'Importing', 'error']);
  });

  it('reads items split across chunks and CRLF-separated, and finds no failure in a successful import', async () => {
    for (const kind of ['podman', 'docker'] as const) {
      const body = recordedResponse(kind, 'import-ok').body.toString();
      const text = `${body.trim()}\r\n${body.trim()}\r\n`;
      const items = await readProgress(Readable.from([text.slice(0, 7), text.slice(7, 40), text.slice(40)]));
      expect(items).toHaveLength(2);
      expect(items[0]!.status).toMatch(/^sha256:[0-9a-f]{64}$/);
    }
  });

  it('takes errorDetail alone, as a string or an object', () => {
    expect(streamFailure([{ status: 'Pulling' }, { errorDetail: { message: 'manifest unknown' } }])).toBe('manifest unknown');
    expect(streamFailure([{ errorDetail: 'denied' }])).toBe('denied');
    expect(streamFailure([{ status: 'Pulling' }, { status: 'Done' }])).toBeNull();
  });
});

describe.each(['podman', 'docker'] as const)('DockerApiEngine on recorded %s answers', (kind) => {
  it('a pull with no registry is a failed pull, and says why', async () => {
    const engine = await engineOn(kind, (r) => (r.method === 'POST' && path(r) === '/images/create' ? 'pull-no-registry' : null));
    const log: string[] = [];
    expect(await engine.images.pull(PUBLIC, 10_000, (l) => log.push(l))).toBe(false);
    expect(log.join('\n')).toMatch(/pull of docker\.io\/library\/debian:bookworm-slim failed: .*registry-1\.docker\.io.*no such host/);
    expect(replay!.requests.some((r) => r.url.searchParams.get('fromImage') === 'docker.io/library/debian')).toBe(true);
  });

  it('a pull whose stream carries no error is still a failure when the image is absent afterwards', async () => {
    // The stream of a successful import stands in for a clean stream (same item shape).
    const engine = await engineOn(kind, (r) => {
      if (r.method === 'POST' && path(r) === '/images/create') return 'import-ok';
      if (path(r) === `/images/${PUBLIC}/json`) return 'inspect-missing';
      return null;
    });
    const log: string[] = [];
    expect(await engine.images.pull(PUBLIC, 10_000, (l) => log.push(l))).toBe(false);
    expect(log).toEqual([`pull of ${PUBLIC} ended without the image`]);
  });

  it('imports a root filesystem tar through the API: body, tag in repo, changes', async () => {
    const ref = 'localhost/gaia2-h-import:good';
    const engine = await engineOn(kind, (r, earlier) => {
      if (r.method === 'POST' && path(r) === '/images/create') return 'import-ok';
      if (path(r) === `/images/${ref}/json`) return earlier.some((e) => e.method === 'POST') ? 'inspect-imported' : 'inspect-missing';
      return null;
    });
    const tar = Buffer.from('pretend this is a tar of a root filesystem');
    await engine.images.importImage(Readable.from([tar]), ref, { changes: ['CMD ["/bin/bash"]', 'ENV A=1'] });
    const post = replay!.requests.find((r) => r.method === 'POST')!;
    expect(post.url.searchParams.get('fromSrc')).toBe('-');
    expect(post.url.searchParams.get('repo')).toBe(ref);
    expect(post.url.searchParams.getAll('changes')).toEqual(['CMD ["/bin/bash"]', 'ENV A=1']);
    expect(post.body.equals(tar)).toBe(true);
  });

  it("a rejected import names the image and carries the engine's reason", async () => {
    const engine = await engineOn(kind, (r) => (r.method === 'POST' ? 'import-bad-tar' : null));
    await expect(engine.images.importImage(Readable.from([Buffer.from('garbage')]), 'localhost/x:y')).rejects.toThrow(
      /importing localhost\/x:y into the engine failed: .*(processing tar file|Error processing tar file).*unexpected EOF/,
    );
  });

  it('an import the engine acknowledges without the image afterwards is an error', async () => {
    const engine = await engineOn(kind, (r) => (r.method === 'POST' ? 'import-ok' : path(r).endsWith('/json') ? 'inspect-missing' : null));
    await expect(engine.images.importImage(Readable.from([Buffer.from('tar')]), 'localhost/x:y')).rejects.toThrow(/holds no such image/);
  });

  it('describe() names the engine, its version and its API version', async () => {
    const engine = await engineOn(kind, (r) => (path(r) === '/version' ? 'version' : null));
    const d = await engine.describe();
    expect(d).toMatchObject(
      kind === 'podman'
        ? { kind: 'podman', version: '4.3.1', apiVersion: '1.41' }
        : { kind: 'docker', version: '20.10.24+dfsg1', apiVersion: '1.41' },
    );
    expect(d.endpoint).toBe(`unix://${replay!.socketPath}`);
  });
});

describe('failures inside a 200 stream through the engine', () => {
  it("an import Docker answers with 200 and then an error item is a failed import", async () => {
    const engine = await engineOn('docker', (r) => (r.method === 'POST' ? 'import-from-url-bad-tar' : 'inspect-imported'));
    await expect(engine.images.importImage(Readable.from([Buffer.from('tar')]), 'localhost/x:y')).rejects.toThrow(/importing localhost\/x:y into the engine failed: Error processing tar file/);
  });

  it("a pull podman answers with 200 and an error item is failed even if a stale image of that name exists", async () => {
    const engine = await engineOn('podman', (r) => (r.method === 'POST' ? 'pull-no-registry' : 'inspect-imported'));
    expect(await engine.images.pull(PUBLIC, 10_000)).toBe(false);
  });
});

describe('removal racing a container that just exited', () => {
  it("retries podman's 500 'container state improper' until the container is gone", async () => {
    const engine = await engineOn('podman', (r, earlier) =>
      r.method === 'DELETE' ? (earlier.some((e) => e.method === 'DELETE') ? 'inspect-missing' : 'remove-while-stopping') : null,
    );
    await engine.remove('6401346f1504');
    expect(replay!.requests.filter((r) => r.method === 'DELETE')).toHaveLength(2);
  });
});
