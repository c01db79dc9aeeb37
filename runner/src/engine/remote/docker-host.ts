// DOCKER_HOST, DOCKER_TLS_VERIFY, DOCKER_TLS and DOCKER_CERT_PATH read the way Docker's CLI
// reads them, into where a remote engine is and how to talk to it. Everything here is
// checked before a connection is tried, so a wrong value fails at once with a message that
// names the variable and the address — never a credential (a user:password in the address
// is refused, not echoed).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../plan/errors.js';

export interface TlsFiles {
  /** False with DOCKER_TLS alone: encrypted, the engine's certificate not checked. */
  verify: boolean;
  certPath: string;
  ca?: Buffer;
  cert?: Buffer;
  key?: Buffer;
}

export type RemoteTarget =
  | { kind: 'tcp'; host: string; port: number; tls: TlsFiles | null; display: string }
  | {
      kind: 'ssh';
      host: string;
      port: number;
      user: string;
      /** The engine's socket on the host (podman's ssh://user@host/run/podman/podman.sock form); absent: `docker system dial-stdio`. */
      socketPath?: string;
      display: string;
    };

export const DOCKER_TCP_PORT = 2375;
export const DOCKER_TLS_PORT = 2376;
const SSH_PORT = 22;
const SCHEMES = 'unix:///path/to/socket, tcp://host:port or ssh://user@host[:port]';
const TLS_FILES = ['ca.pem', 'cert.pem', 'key.pem'] as const;

/** True for a DOCKER_HOST value that names a local socket (handled by discovery as before). */
export function isLocalDockerHost(value: string): boolean {
  return value.startsWith('unix://');
}

/** The address as it may be shown: scheme, user, host and port, nothing else. */
function shown(scheme: string, host: string, port: string, user = ''): string {
  return `${scheme}://${user ? `${user}@` : ''}${host}${port ? `:${port}` : ''}`;
}

/**
 * Parses a remote DOCKER_HOST (tcp://, ssh://, and http(s):// as docker-modem accepts them)
 * with the TLS variables from `env`. Throws ConfigError naming the variable for anything wrong.
 */
export function parseRemoteDockerHost(value: string, env: NodeJS.ProcessEnv = process.env): RemoteTarget {
  const raw = value.trim();
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\//.exec(raw)?.[1]?.toLowerCase();
  if (!scheme) throw new ConfigError(`DOCKER_HOST=${safeText(raw)} is not an address; use ${SCHEMES}`);
  if (!['tcp', 'http', 'https', 'ssh'].includes(scheme)) {
    throw new ConfigError(`DOCKER_HOST=${safeText(raw)}: unsupported scheme "${scheme}://"; use ${SCHEMES}`);
  }
  const a = splitAuthority(raw.slice(scheme.length + 3));
  const user = decodeUser(a.user);
  const display = shown(scheme, a.hostText, a.portText, scheme === 'ssh' ? user : '');
  if (!a.host) throw new ConfigError(`DOCKER_HOST=${display} names no host; use ${SCHEMES}`);
  if (a.hasPassword) {
    throw new ConfigError(
      `DOCKER_HOST=${display}: a password in the address is not supported (it would end up in logs); ` +
        (scheme === 'ssh' ? 'use a key (ssh-agent or GAIA2_SSH_IDENTITY)' : 'use DOCKER_TLS_VERIFY with client certificates'),
    );
  }
  const socketPath = scheme === 'ssh' && /^\/[^?#]+$/.test(a.rest) && a.rest !== '/' ? a.rest : undefined;
  if (a.rest && a.rest !== '/' && !socketPath) throw new ConfigError(`DOCKER_HOST=${display}: a path or query is not supported in the engine address`);
  const port = a.portText ? Number(a.portText) : undefined;
  if (port !== undefined && !(/^\d+$/.test(a.portText) && port > 0 && port < 65536)) {
    throw new ConfigError(`DOCKER_HOST=${display}: port "${a.portText}" is not a port number`);
  }
  const host = a.host;

  if (scheme === 'ssh') {
    const login = user || currentUser();
    const shownAddress = shown('ssh', a.hostText, String(port ?? SSH_PORT), login) + (socketPath ?? '');
    return { kind: 'ssh', host, port: port ?? SSH_PORT, user: login, ...(socketPath ? { socketPath } : {}), display: shownAddress };
  }
  if (a.user) throw new ConfigError(`DOCKER_HOST=${display}: a user in a ${scheme}:// address is not supported`);
  const tls = scheme === 'https' ? readTlsFiles(env, true) : scheme === 'http' ? null : readTlsFiles(env, false);
  const resolvedPort = port ?? (tls ? DOCKER_TLS_PORT : DOCKER_TCP_PORT);
  return { kind: 'tcp', host, port: resolvedPort, tls, display: shown(scheme, a.hostText, String(resolvedPort)) };
}

/** A non-empty value enables, as in Docker's CLI (`DOCKER_TLS_VERIFY=0` enables too). */
function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  return (env[name] ?? '') !== '';
}

/**
 * TLS settings from the environment: none unless DOCKER_TLS_VERIFY or DOCKER_TLS is set (or
 * the scheme is https). With verification the three files must exist; without it a client
 * certificate is used when both its files exist.
 */
export function readTlsFiles(env: NodeJS.ProcessEnv, forced: boolean): TlsFiles | null {
  const verify = flag(env, 'DOCKER_TLS_VERIFY');
  if (!verify && !flag(env, 'DOCKER_TLS') && !forced) return null;
  const fromEnv = env.DOCKER_CERT_PATH?.trim();
  const certPath = fromEnv || join(homedir(), '.docker');
  const named = fromEnv ? `DOCKER_CERT_PATH=${certPath}` : `DOCKER_CERT_PATH (unset, so ${certPath})`;
  const why = verify ? 'DOCKER_TLS_VERIFY is set' : flag(env, 'DOCKER_TLS') ? 'DOCKER_TLS is set' : 'DOCKER_HOST is https://';
  if (!existsSync(certPath) || !statSync(certPath).isDirectory()) {
    if (verify) throw new ConfigError(`${why} but ${named} is not a directory; it must hold ${TLS_FILES.join(', ')}`);
    return { verify: false, certPath };
  }
  const present = TLS_FILES.filter((f) => existsSync(join(certPath, f)));
  if (verify) {
    const missing = TLS_FILES.filter((f) => !present.includes(f));
    if (missing.length) throw new ConfigError(`${why} but ${named} has no ${missing.join(', ')} (needs ${TLS_FILES.join(', ')})`);
  }
  const read = (f: (typeof TLS_FILES)[number]) => (present.includes(f) ? readFileSync(join(certPath, f)) : undefined);
  const client = present.includes('cert.pem') && present.includes('key.pem');
  return {
    verify,
    certPath,
    ...(verify ? { ca: read('ca.pem') } : {}),
    ...(client ? { cert: read('cert.pem'), key: read('key.pem') } : {}),
  };
}

interface Authority {
  user: string;
  hasPassword: boolean;
  /** Host without brackets (for connecting) and as written (brackets kept, for messages). */
  host: string;
  hostText: string;
  portText: string;
  /** Whatever follows the authority (path, query). */
  rest: string;
}

/** user[:password]@host[:port] split by hand: URL drops default ports and treats tcp:// as opaque. */
function splitAuthority(s: string): Authority {
  const end = s.search(/[/?#]/);
  const authority = end < 0 ? s : s.slice(0, end);
  const rest = end < 0 ? '' : s.slice(end);
  const at = authority.lastIndexOf('@');
  const userinfo = at < 0 ? '' : authority.slice(0, at);
  const hostport = at < 0 ? authority : authority.slice(at + 1);
  let hostText = hostport;
  let portText = '';
  const bracket = /^(\[[^\]]*\])(?::(.*))?$/.exec(hostport);
  if (bracket) {
    hostText = bracket[1]!;
    portText = bracket[2] ?? '';
  } else if (hostport.includes(':')) {
    const i = hostport.lastIndexOf(':');
    hostText = hostport.slice(0, i);
    portText = hostport.slice(i + 1);
  }
  const colon = userinfo.indexOf(':');
  return {
    user: colon < 0 ? userinfo : userinfo.slice(0, colon),
    hasPassword: colon >= 0,
    host: hostText.replace(/^\[|\]$/g, ''),
    hostText,
    portText,
    rest,
  };
}

/** A %-escaped user name; a malformed escape is kept as written (ssh refuses it later). */
function decodeUser(u: string): string {
  try {
    return decodeURIComponent(u);
  } catch {
    return u;
  }
}

function currentUser(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? 'root';
  }
}

/** An unparseable value shown without anything that looks like credentials. */
function safeText(v: string): string {
  return v.replace(/\/\/[^@/]*@/, '//***@');
}
