// Host key checking for ssh:// engines against an OpenSSH known_hosts file, as `ssh` itself
// would with StrictHostKeyChecking: a host whose key is not listed is refused, so a
// connection to the engine (which can run anything as its user) is never silently
// redirected. Plain, wildcard and hashed (|1|salt|hash) host entries; @revoked keys refuse.
import { createHmac } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';

interface Entry {
  patterns: string[];
  key: Buffer;
  revoked: boolean;
}

/** The names an entry for host:port is written under: `host`, or `[host]:port` off port 22. */
export function knownHostsName(host: string, port: number): string {
  return port === 22 ? host : `[${host}]:${port}`;
}

function globMatch(pattern: string, name: string): boolean {
  const re = new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`, 'i');
  return re.test(name);
}

function hashedMatch(pattern: string, name: string): boolean {
  const [, kind, salt, hash] = pattern.split('|');
  if (kind !== '1' || !salt || !hash) return false;
  return createHmac('sha1', Buffer.from(salt, 'base64')).update(name).digest('base64') === hash;
}

function matches(entry: Entry, name: string): boolean {
  let hit = false;
  for (const p of entry.patterns) {
    if (p.startsWith('!')) {
      if (globMatch(p.slice(1), name)) return false;
    } else if (p.startsWith('|') ? hashedMatch(p, name) : globMatch(p, name)) hit = true;
  }
  return hit;
}

export function parseKnownHosts(text: string): Entry[] {
  const out: Entry[] = [];
  for (const line of text.split('\n')) {
    const fields = line.trim().split(/\s+/);
    if (!fields[0] || fields[0].startsWith('#')) continue;
    let marker = '';
    if (fields[0].startsWith('@')) marker = fields.shift()!;
    if (marker === '@cert-authority') continue; // host certificates are not checked here
    const [hosts, , blob] = fields;
    if (!hosts || !blob) continue;
    out.push({ patterns: hosts.split(','), key: Buffer.from(blob, 'base64'), revoked: marker === '@revoked' });
  }
  return out;
}

export type HostKeyVerdict = 'known' | 'unknown' | 'mismatch' | 'revoked';

/** What the file says of this key for host:port. */
export function checkHostKey(entries: Entry[], host: string, port: number, key: Buffer): HostKeyVerdict {
  const name = knownHostsName(host, port);
  if (entries.some((e) => e.revoked && e.key.equals(key))) return 'revoked';
  const listed = entries.filter((e) => !e.revoked && matches(e, name));
  if (listed.length === 0) return 'unknown';
  return listed.some((e) => e.key.equals(key)) ? 'known' : 'mismatch';
}

export function readKnownHosts(path: string): Entry[] {
  return existsSync(path) ? parseKnownHosts(readFileSync(path, 'utf8')) : [];
}
