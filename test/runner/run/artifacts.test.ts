// Collecting a run's artifacts from our image's tar answer: what the image could not read comes
// by the engine's archive instead, and a secret in any collected file is redacted on disk, the
// same as with the JSON answer (the streamed path does not skip the redaction).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openArtifacts } from '../../../agent-image/src/adapter/artifacts-tar.js';
import { createAdapterServer, fileBackend, listen, readArtifacts } from '../../../agent-image/src/adapter/index.js';
import type { ContainerHandle } from '../../../runner/src/engine/index.js';
import { AdapterClient } from '../../../runner/src/run/adapter-client.js';
import { collectArtifacts, writeArtifacts } from '../../../runner/src/run/artifacts.js';
import { clearSecrets, registerSecret } from '../../../runner/src/secrets/redact.js';

const closers: Array<() => void> = [];
afterEach(() => {
  for (const c of closers.splice(0)) c();
  clearSecrets();
});

const SECRET = 'sk-live-canary-0123456789';

async function run(tar: boolean) {
  const state = mkdtempSync(join(tmpdir(), 'collect-'));
  writeFileSync(join(state, 'events.jsonl'), `{"fn": "reply", "args": {"key": "${SECRET}"}}\n`);
  writeFileSync(join(state, 'daemon_status.json'), '{"status": "complete"}');
  const paths: Array<readonly [string, string]> = [
    [join(state, 'events.jsonl'), 'events.jsonl'],
    [join(state, 'daemon_status.json'), 'daemon_status.json'],
    [state, 'judge_trace.jsonl'], // unreadable for the image: the archive brings it
  ];
  const { server } = createAdapterServer({
    backend: fileBackend('/nonexistent/daemon_status.json'),
    token: 'tok-c',
    artifacts: () => readArtifacts(paths),
    artifactsTar: () => openArtifacts(paths),
  });
  const port = await listen(server, 0, '127.0.0.1');
  const client = new AdapterClient(`http://127.0.0.1:${port}`, 'tok-c');
  closers.push(() => (void client.close(), server.closeAllConnections(), server.close()));
  const asked: string[][] = [];
  const handle = {
    readFiles: async (_dir: string, names: readonly string[]) => {
      asked.push([...names]);
      return new Map(names.map((n) => [n, Buffer.from(`archive copy of ${n} ${SECRET}`)]));
    },
  } as unknown as ContainerHandle;
  registerSecret(SECRET);
  const files = await collectArtifacts(handle, client, tar);
  const out = mkdtempSync(join(tmpdir(), 'collect-out-'));
  await writeArtifacts(out, files);
  return { files, out, asked };
}

describe('collect through the tar answer', () => {
  it('brings the same files as the JSON answer, the unreadable one by archive, and redacts secrets on disk', async () => {
    const viaTar = await run(true);
    const viaJson = await run(false);
    expect([...viaTar.files.keys()].sort()).toEqual(['daemon_status.json', 'events.jsonl', 'judge_trace.jsonl']);
    for (const [name, b] of viaJson.files) expect(viaTar.files.get(name)!.equals(b)).toBe(true);
    expect(viaTar.asked).toEqual([['judge_trace.jsonl']]);
    for (const { out } of [viaTar, viaJson]) {
      const events = readFileSync(join(out, 'events.jsonl'), 'utf8');
      expect(events).not.toContain(SECRET);
      expect(events).toBe('{"fn": "reply", "args": {"key": "***"}}\n');
      expect(readFileSync(join(out, 'judge_trace.jsonl'), 'utf8')).toBe('archive copy of judge_trace.jsonl ***');
    }
  });
});

describe('collect from an image without our adapter (a reference image)', () => {
  it("reads every known artifact by the engine's archive, one request per directory, the mini-swe-agent trajectory among them", async () => {
    const asked: Array<[string, string[]]> = [];
    const inContainer: Record<string, string> = { '/tmp/mini-trajectory.json': '{"trajectory_format": "mini-swe-agent-1", "messages": []}', '/tmp/trace.jsonl': '{}\n' };
    const handle = {
      readFiles: async (dir: string, names: readonly string[]) => {
        asked.push([dir, [...names]]);
        return new Map(names.flatMap((n) => (inContainer[`${dir}/${n}`] ? [[n, Buffer.from(inContainer[`${dir}/${n}`]!)] as const] : [])));
      },
    } as unknown as ContainerHandle;
    const files = await collectArtifacts(handle, null);
    expect([...files.keys()].sort()).toEqual(['mini-trajectory.json', 'trace.jsonl']);
    expect(files.get('mini-trajectory.json')!.toString()).toContain('mini-swe-agent-1');
    expect(asked.find(([dir]) => dir === '/tmp')![1]).toContain('mini-trajectory.json');
    expect(new Set(asked.map(([dir]) => dir)).size).toBe(asked.length);
  });
});
