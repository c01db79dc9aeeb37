// scripts/setup-engine.sh with a remote DOCKER_HOST: nothing installed, started or probed on
// this machine (it used to take tcp://… for a socket path and install podman).
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const script = join(import.meta.dirname, '..', '..', 'scripts', 'setup-engine.sh');

/** PATH entries that record any call to the commands the script would install or start with. */
function recordingPath(): { dir: string; calls: string } {
  const dir = mkdtempSync(join(tmpdir(), 'gaia2-setup-engine-'));
  const calls = join(dir, 'calls');
  for (const cmd of ['podman', 'apt-get', 'curl', 'nohup', 'runc']) {
    writeFileSync(join(dir, cmd), `#!/bin/sh\necho "${cmd} $*" >> ${calls}\nexit 1\n`);
    chmodSync(join(dir, cmd), 0o755);
  }
  return { dir, calls };
}

describe('setup-engine.sh', () => {
  it.each(['tcp://10.213.7.2:2375', 'ssh://ops@engine.example', 'tcp://user:s3cretpw@engine:2376'])('leaves DOCKER_HOST=%s alone', (dockerHost) => {
    const { dir, calls } = recordingPath();
    const r = spawnSync('bash', [script], { env: { PATH: `${dir}:/usr/bin:/bin`, DOCKER_HOST: dockerHost }, encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/names a remote engine; leaving it alone/);
    expect(r.stdout + r.stderr).not.toContain('s3cretpw');
    expect(existsSync(calls) ? readFileSync(calls, 'utf8') : '').toBe('');
  });
});
