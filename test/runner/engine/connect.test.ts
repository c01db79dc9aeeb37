import { describe, expect, it } from 'vitest';
import { connectEngine } from '../../../runner/src/engine/index.js';
import { parseDockerHost, startPodmanService } from '../../../runner/src/engine/discover.js';
import { isLocalDockerHost, parseRemoteDockerHost } from '../../../runner/src/engine/remote/docker-host.js';
import { demuxLogs } from '../../../runner/src/engine/docker-container.js';

describe('engine discovery', () => {
  it('fails fast with a clear error when DOCKER_HOST points nowhere', async () => {
    const t0 = Date.now();
    await expect(connectEngine({ host: 'unix:///tmp/gaia2-no-engine.sock' })).rejects.toMatchObject({
      kind: 'engine_unavailable',
      message: expect.stringContaining('not reachable'),
    });
    expect(Date.now() - t0).toBeLessThan(5000);
  });

  it('fails fast against a TCP address where nothing listens', async () => {
    const t0 = Date.now();
    await expect(connectEngine({ host: 'tcp://127.0.0.1:1' })).rejects.toMatchObject({ kind: 'engine_unavailable' });
    expect(Date.now() - t0).toBeLessThan(5000);
  });

  it('parses DOCKER_HOST forms and rejects others', () => {
    expect(parseDockerHost('unix:///run/x.sock')).toMatchObject({ socketPath: '/run/x.sock' });
    // every other form is a remote engine's
    expect(isLocalDockerHost('tcp://10.1.2.3:2376')).toBe(false);
    expect(parseRemoteDockerHost('tcp://10.1.2.3:2376', {})).toMatchObject({ kind: 'tcp', host: '10.1.2.3', port: 2376, tls: null });
    expect(() => parseRemoteDockerHost('ftp://x', {})).toThrow(/DOCKER_HOST=ftp:\/\/x: unsupported scheme/);
  });

  it("a podman service the runner starts is described by its address, which connects again (a child's DOCKER_HOST)", async () => {
    const started = startPodmanService();
    try {
      expect(started.source).toBe(`unix://${started.socketPath}`);
      expect(isLocalDockerHost(started.source)).toBe(true);
      const again = await connectEngine({ host: started.source, startPodman: false }).catch(async () => {
        await new Promise((r) => setTimeout(r, 2000)); // the service may still be starting
        return connectEngine({ host: started.source, startPodman: false });
      });
      expect((await again.describe()).endpoint).toBe(started.source);
      await again.close();
    } finally {
      started.child?.kill('SIGTERM');
    }
  });

  it('strips stream headers from container logs', () => {
    const frame = (t: number, s: string) => {
      const b = Buffer.from(s);
      const h = Buffer.alloc(8);
      h[0] = t;
      h.writeUInt32BE(b.length, 4);
      return Buffer.concat([h, b]);
    };
    expect(demuxLogs(Buffer.concat([frame(1, 'out\n'), frame(2, 'err\n')]))).toBe('out\nerr\n');
    expect(demuxLogs(Buffer.from('plain text'))).toBe('plain text');
  });
});
