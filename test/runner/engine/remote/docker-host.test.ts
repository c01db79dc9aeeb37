// DOCKER_HOST and the TLS variables read as Docker's CLI reads them, and every bad value
// refused with a message that names the variable and the address, never a credential.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isLocalDockerHost, parseRemoteDockerHost } from '../../../../runner/src/engine/remote/docker-host.js';

function certDir(files: string[]): string {
  const d = mkdtempSync(join(tmpdir(), 'gaia2-certs-'));
  for (const f of files) writeFileSync(join(d, f), `-----BEGIN ${f}-----\n`);
  return d;
}

describe('parseRemoteDockerHost', () => {
  it('reads tcp:// with the default ports (2375 plain, 2376 with TLS)', () => {
    expect(parseRemoteDockerHost('tcp://10.1.2.3', {})).toEqual({ kind: 'tcp', host: '10.1.2.3', port: 2375, tls: null, display: 'tcp://10.1.2.3:2375' });
    expect(parseRemoteDockerHost('tcp://engine.example:80', {})).toMatchObject({ host: 'engine.example', port: 80 });
    expect(parseRemoteDockerHost('tcp://[fd00::5]:2375', {})).toMatchObject({ host: 'fd00::5', port: 2375, display: 'tcp://[fd00::5]:2375' });
    const d = certDir(['ca.pem', 'cert.pem', 'key.pem']);
    const t = parseRemoteDockerHost('tcp://10.1.2.3', { DOCKER_TLS_VERIFY: '1', DOCKER_CERT_PATH: d });
    expect(t).toMatchObject({ kind: 'tcp', port: 2376, tls: { verify: true, certPath: d } });
    if (t.kind !== 'tcp' || !t.tls) throw new Error('expected tls');
    expect(t.tls.ca?.toString()).toContain('ca.pem');
    expect(t.tls.cert?.toString()).toContain('cert.pem');
    expect(t.tls.key?.toString()).toContain('key.pem');
  });

  it('treats any non-empty DOCKER_TLS_VERIFY as on, like the CLI, and DOCKER_TLS as TLS without verification', () => {
    const d = certDir(['ca.pem', 'cert.pem', 'key.pem']);
    expect(parseRemoteDockerHost('tcp://h:1', { DOCKER_TLS_VERIFY: '0', DOCKER_CERT_PATH: d })).toMatchObject({ tls: { verify: true } });
    expect(parseRemoteDockerHost('tcp://h:1', { DOCKER_TLS_VERIFY: '', DOCKER_CERT_PATH: d })).toMatchObject({ tls: null });
    const noCa = certDir(['cert.pem', 'key.pem']);
    const t = parseRemoteDockerHost('tcp://h:1', { DOCKER_TLS: '1', DOCKER_CERT_PATH: noCa });
    expect(t).toMatchObject({ tls: { verify: false } });
    if (t.kind !== 'tcp' || !t.tls) throw new Error('expected tls');
    expect(t.tls.ca).toBeUndefined();
    expect(t.tls.cert).toBeDefined();
    // No certificates at all: still encrypted, no client certificate.
    expect(parseRemoteDockerHost('tcp://h:1', { DOCKER_TLS: '1', DOCKER_CERT_PATH: join(noCa, 'none') })).toMatchObject({ tls: { verify: false } });
  });

  it('reads ssh:// with user and port, defaulting to port 22 and the current user', () => {
    expect(parseRemoteDockerHost('ssh://ops@engine.example:2222', {})).toEqual({
      kind: 'ssh', host: 'engine.example', port: 2222, user: 'ops', display: 'ssh://ops@engine.example:2222',
    });
    expect(parseRemoteDockerHost('ssh://ops@h/run/podman/podman.sock', {})).toEqual({
      kind: 'ssh', host: 'h', port: 22, user: 'ops', socketPath: '/run/podman/podman.sock', display: 'ssh://ops@h:22/run/podman/podman.sock',
    });
    expect(() => parseRemoteDockerHost('ssh://ops@h/x?y=1', {})).toThrow(/a path or query is not supported/);
    expect(parseRemoteDockerHost('ssh://a%40b@h', {})).toMatchObject({ user: 'a@b' });
    expect(parseRemoteDockerHost('ssh://a%zz@h', {})).toMatchObject({ user: 'a%zz' });
    const t = parseRemoteDockerHost('ssh://engine.example', {});
    expect(t).toMatchObject({ kind: 'ssh', port: 22 });
    if (t.kind !== 'ssh') throw new Error('expected ssh');
    expect(t.user.length).toBeGreaterThan(0);
  });

  it('rejects a wrong scheme, naming the variable and the address', () => {
    expect(() => parseRemoteDockerHost('ftp://engine:21', {})).toThrow(/DOCKER_HOST=ftp:\/\/engine:21: unsupported scheme "ftp:\/\/"; use unix:\/\/.*tcp:\/\/.*ssh:\/\//);
    expect(() => parseRemoteDockerHost('engine:2375', {})).toThrow(/DOCKER_HOST=engine:2375 is not an address/);
    try {
      parseRemoteDockerHost('npipe:////./pipe/docker_engine', {});
      expect.unreachable();
    } catch (e) {
      expect((e as Error).name).toBe('ConfigError');
    }
  });

  it('rejects missing hosts, bad ports and paths', () => {
    expect(() => parseRemoteDockerHost('tcp://:2375', {})).toThrow(/DOCKER_HOST=tcp:\/\/:2375 names no host/);
    expect(() => parseRemoteDockerHost('tcp://h:99999', {})).toThrow(/DOCKER_HOST=tcp:\/\/h:99999: port "99999" is not a port number/);
    expect(() => parseRemoteDockerHost('tcp://h:abc', {})).toThrow(/port "abc"/);
    expect(() => parseRemoteDockerHost('tcp://h:2375/v1.41', {})).toThrow(/DOCKER_HOST=tcp:\/\/h:2375: a path or query is not supported/);
  });

  it('refuses passwords in the address without ever showing them', () => {
    for (const v of ['ssh://ops:hunter2secret@h', 'tcp://u:hunter2secret@h:2375']) {
      let msg = '';
      try {
        parseRemoteDockerHost(v, {});
      } catch (e) {
        msg = (e as Error).message;
      }
      expect(msg).toMatch(/password in the address is not supported/);
      expect(msg).not.toContain('hunter2secret');
    }
    expect(() => parseRemoteDockerHost('tcp://u@h', {})).toThrow(/a user in a tcp:\/\/ address is not supported/);
  });

  it('names DOCKER_CERT_PATH and the missing files when TLS verification is on', () => {
    const d = certDir(['ca.pem']);
    expect(() => parseRemoteDockerHost('tcp://h:2376', { DOCKER_TLS_VERIFY: '1', DOCKER_CERT_PATH: d })).toThrow(
      new RegExp(`DOCKER_TLS_VERIFY is set but DOCKER_CERT_PATH=${d} has no cert.pem, key.pem`),
    );
    const missing = join(d, 'nowhere');
    expect(() => parseRemoteDockerHost('tcp://h:2376', { DOCKER_TLS_VERIFY: '1', DOCKER_CERT_PATH: missing })).toThrow(
      new RegExp(`DOCKER_CERT_PATH=${missing} is not a directory`),
    );
    // https:// means TLS even without the variables; the verification needs ca.pem.
    expect(parseRemoteDockerHost('https://h:2376', { DOCKER_CERT_PATH: certDir([]) })).toMatchObject({ tls: { verify: false } });
  });

  it('tells local sockets from remote addresses', () => {
    expect(isLocalDockerHost('unix:///run/podman/podman.sock')).toBe(true);
    expect(isLocalDockerHost('tcp://h:2375')).toBe(false);
    expect(isLocalDockerHost('ssh://h')).toBe(false);
  });
});
