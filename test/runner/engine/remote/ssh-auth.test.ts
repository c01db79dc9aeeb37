// Where an ssh:// engine connection gets its key and its known_hosts file.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sshAuthFrom } from '../../../../runner/src/engine/remote/ssh-auth.js';

const display = 'ssh://ops@engine:22';

describe('sshAuthFrom', () => {
  it('takes GAIA2_SSH_IDENTITY first and GAIA2_SSH_KNOWN_HOSTS when set', () => {
    const d = mkdtempSync(join(tmpdir(), 'gaia2-ssh-'));
    writeFileSync(join(d, 'key'), 'PRIVATE');
    const a = sshAuthFrom({ HOME: d, GAIA2_SSH_IDENTITY: join(d, 'key'), SSH_AUTH_SOCK: '/tmp/agent.sock', GAIA2_SSH_KNOWN_HOSTS: join(d, 'kh') }, display);
    expect(a.identity?.key.toString()).toBe('PRIVATE');
    expect(a.agent).toBeUndefined();
    expect(a.knownHostsPath).toBe(join(d, 'kh'));
  });

  it('uses ssh-agent, then ~/.ssh/id_* keys, with ~/.ssh/known_hosts by default', () => {
    const home = mkdtempSync(join(tmpdir(), 'gaia2-home-'));
    expect(sshAuthFrom({ HOME: home, SSH_AUTH_SOCK: '/tmp/agent.sock' }, display)).toMatchObject({
      agent: '/tmp/agent.sock',
      knownHostsPath: join(home, '.ssh', 'known_hosts'),
    });
    mkdirSync(join(home, '.ssh'));
    writeFileSync(join(home, '.ssh', 'id_rsa'), 'RSA');
    expect(sshAuthFrom({ HOME: home }, display).identity?.path).toBe(join(home, '.ssh', 'id_rsa'));
    writeFileSync(join(home, '.ssh', 'id_ed25519'), 'ED');
    expect(sshAuthFrom({ HOME: home }, display).identity?.path).toBe(join(home, '.ssh', 'id_ed25519'));
  });

  it('names the variable when the key file is missing, and the options when there is no key at all', () => {
    const home = mkdtempSync(join(tmpdir(), 'gaia2-home-'));
    expect(() => sshAuthFrom({ HOME: home, GAIA2_SSH_IDENTITY: join(home, 'nope') }, display)).toThrow(
      new RegExp(`GAIA2_SSH_IDENTITY=${join(home, 'nope')} does not exist \\(the private key for DOCKER_HOST=ssh://ops@engine:22\\)`),
    );
    expect(() => sshAuthFrom({ HOME: home }, display)).toThrow(/DOCKER_HOST=ssh:\/\/ops@engine:22 needs an SSH key: set GAIA2_SSH_IDENTITY.*SSH_AUTH_SOCK/);
  });
});
