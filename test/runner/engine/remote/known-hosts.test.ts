// Host keys of ssh:// engines checked against known_hosts entries the way OpenSSH writes them
// (ssh-keygen/ssh-keyscan output: plain, [host]:port, hashed, wildcard, @revoked).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkHostKey, parseKnownHosts } from '../../../../runner/src/engine/remote/known-hosts.js';

/** A real ed25519 public key from ssh-keygen: [type, base64 blob]. */
function newKey(): [string, string] {
  const d = mkdtempSync(join(tmpdir(), 'gaia2-kh-'));
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(d, 'k')]);
  const [type, blob] = readFileSync(join(d, 'k.pub'), 'utf8').split(' ');
  return [type!, blob!];
}

describe('known_hosts checking', () => {
  const [type, blob] = newKey();
  const [, other] = newKey();
  const key = Buffer.from(blob, 'base64');

  it('knows a plain entry on port 22 and a [host]:port entry on other ports', () => {
    const e = parseKnownHosts(`# comment\n10.0.0.5 ${type} ${blob}\n[10.0.0.6]:2222,alias ${type} ${blob} me@box\n`);
    expect(checkHostKey(e, '10.0.0.5', 22, key)).toBe('known');
    expect(checkHostKey(e, '10.0.0.5', 2222, key)).toBe('unknown');
    expect(checkHostKey(e, '10.0.0.6', 2222, key)).toBe('known');
    expect(checkHostKey(e, '10.0.0.7', 22, key)).toBe('unknown');
  });

  it('reports a different key for a listed host as a mismatch', () => {
    const e = parseKnownHosts(`10.0.0.5 ${type} ${other}\n`);
    expect(checkHostKey(e, '10.0.0.5', 22, key)).toBe('mismatch');
  });

  it('matches hashed entries written by ssh-keygen -H', () => {
    const d = mkdtempSync(join(tmpdir(), 'gaia2-kh-'));
    const file = join(d, 'known_hosts');
    execFileSync('bash', ['-c', `printf '%s\\n' "[engine.example]:2200 ${type} ${blob}" > ${file} && ssh-keygen -q -H -f ${file} 2>/dev/null`]);
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(/^\|1\|/);
    const e = parseKnownHosts(text);
    expect(checkHostKey(e, 'engine.example', 2200, key)).toBe('known');
    expect(checkHostKey(e, 'engine.example', 22, key)).toBe('unknown');
  });

  it('honours wildcards, negations and @revoked', () => {
    const e = parseKnownHosts(`*.lab,!bad.lab ${type} ${blob}\n@revoked * ${type} ${other}\n`);
    expect(checkHostKey(e, 'gpu1.lab', 22, key)).toBe('known');
    expect(checkHostKey(e, 'bad.lab', 22, key)).toBe('unknown');
    expect(checkHostKey(e, 'gpu1.lab', 22, Buffer.from(other, 'base64'))).toBe('revoked');
  });
});
