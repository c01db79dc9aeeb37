// One SSH connection to an engine host, shared by everything the runner does there:
//   - Engine API requests: each runs `docker system dial-stdio` on the host (what Docker's CLI
//     does for ssh://; podman has the same subcommand) and speaks HTTP over that channel; with
//     a socket path in the address (podman's ssh://user@host/run/podman/podman.sock form) the
//     channel is forwarded to that socket instead (no process on the host).
//   - Adapter ports: a local listener on 127.0.0.1 per container, each connection forwarded
//     (direct-tcpip) to the port the engine published on the host's loopback.
// The TCP connect gets a short deadline of its own, so an unreachable host fails fast; the
// key exchange and login get a longer one (slow links are not bad addresses).
import http from 'node:http';
import net, { type AddressInfo, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { Client, type ClientChannel } from 'ssh2';
import { ConfigError } from '../../plan/errors.js';
import { EngineError } from '../errors.js';
import { checkHostKey, knownHostsName, readKnownHosts, type HostKeyVerdict } from './known-hosts.js';
import type { SshAuth } from './ssh-auth.js';
import { connectWithin } from './tcp-reach.js';

const HANDSHAKE_TIMEOUT_MS = 15_000;
/** OpenSSH allows 10 sessions per connection (MaxSessions); each API request holds one. */
const MAX_API_CHANNELS = 8;
const OPEN_RETRIES = 20;
const DIAL_COMMAND = 'docker system dial-stdio';

export interface SshTarget {
  host: string;
  port: number;
  user: string;
  /** Engine socket on the host, reached by streamlocal forwarding instead of dial-stdio. */
  socketPath?: string;
  display: string;
}

export interface LocalForward {
  port: number;
  close(): Promise<void>;
}

export class SshConnection {
  private closed = false;
  /** stderr of the last dial-stdio that failed (a missing `docker` on the host, say). */
  lastDialError = '';
  private readonly forwards = new Set<net.Server>();

  private constructor(
    private readonly client: Client,
    readonly target: SshTarget,
  ) {
    client.on('close', () => (this.closed = true));
  }

  static async open(target: SshTarget, auth: SshAuth, connectTimeoutMs: number): Promise<SshConnection> {
    const sock = await connectWithin(target.host, target.port, connectTimeoutMs, `DOCKER_HOST=${target.display}`);
    const known = readKnownHosts(auth.knownHostsPath);
    let verdict: HostKeyVerdict = 'unknown';
    const client = new Client();
    try {
      await new Promise<void>((resolve, reject) => {
        client.once('ready', () => resolve());
        client.once('error', reject);
        client.connect({
          sock,
          username: target.user,
          ...(auth.identity ? { privateKey: auth.identity.key } : {}),
          ...(auth.agent ? { agent: auth.agent } : {}),
          readyTimeout: HANDSHAKE_TIMEOUT_MS,
          keepaliveInterval: 15_000,
          hostVerifier: (key: Buffer) => {
            verdict = checkHostKey(known, target.host, target.port, key);
            return verdict === 'known';
          },
        });
      });
    } catch (e) {
      client.end();
      sock.destroy();
      throw sshFailure(e as Error, target, auth, verdict);
    }
    client.removeAllListeners('error');
    // Errors after the login surface on the requests that hit them.
    client.on('error', () => {});
    return new SshConnection(client, target);
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  /** Session channels open now (counted until the server has closed them too). */
  private sessions = 0;
  private readonly waiting: Array<() => void> = [];

  /**
   * A channel to the engine API (an HTTP connection's worth). The server counts a session
   * until both sides have closed it, later than the HTTP client lets go of it, so sessions are
   * counted here up to their 'close', and an open refused anyway (MaxSessions) is retried.
   */
  async dialEngine(evictIdle: () => void = () => {}): Promise<ClientChannel> {
    while (this.sessions >= MAX_API_CHANNELS) {
      evictIdle();
      await new Promise<void>((r) => this.waiting.push(r));
    }
    this.sessions++;
    const release = () => {
      this.sessions--;
      this.waiting.shift()?.();
    };
    for (let attempt = 1; ; attempt++) {
      try {
        const ch = await this.execDial();
        ch.once('close', release);
        return asSocket(ch);
      } catch (e) {
        // Only sessions (dial-stdio) hit the MaxSessions limit; a socket that refuses stays refused.
        if (this.target.socketPath || !/open failed/i.test((e as Error).message) || attempt >= OPEN_RETRIES || this.closed) {
          release();
          throw new EngineError('engine_unavailable', `DOCKER_HOST=${this.target.display}: ${(e as Error).message}`);
        }
        await new Promise((r) => setTimeout(r, 20 * attempt));
      }
    }
  }

  private execDial(): Promise<ClientChannel> {
    const socket = this.target.socketPath;
    if (socket) {
      return new Promise((resolve, reject) =>
        this.client.openssh_forwardOutStreamLocal(socket, (err, ch) => (err ? reject(new Error(`${err.message} (${socket} on the engine host)`)) : resolve(ch))),
      );
    }
    return new Promise((resolve, reject) => {
      this.client.exec(DIAL_COMMAND, (err, ch) => {
        if (err) return reject(err);
        let stderr = '';
        ch.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-500)));
        ch.on('exit', (code: number | null) => {
          if (code) this.lastDialError = `\`${DIAL_COMMAND}\` exited with ${code} on the engine host: ${stderr.trim() || 'no output'}`;
        });
        resolve(ch);
      });
    });
  }

  /**
   * An http.Agent whose connections are dial-stdio channels of this connection, kept alive: one
   * dial-stdio process on the host serves many requests (each costs a process start there).
   * The agent asks for a connection per waiting request (it does not count connections still
   * being made), so at the session limit an idle kept-alive channel is closed to make room.
   */
  httpAgent(): http.Agent {
    const agent = new http.Agent({ keepAlive: true });
    const evictIdle = () => {
      for (const list of Object.values(agent.freeSockets)) {
        const idle = list?.[0];
        if (idle) return void idle.destroy();
      }
    };
    // A request that went idle may be what a waiting dial needs: let it look again.
    agent.on('free', () => setImmediate(() => this.waiting.shift()?.()));
    (agent as unknown as { createConnection: (o: unknown, cb: (e: Error | null, s?: Duplex) => void) => void }).createConnection = (_o, cb) => {
      this.dialEngine(evictIdle).then((ch) => cb(null, ch), (e: Error) => cb(e));
    };
    return agent;
  }

  /** A direct-tcpip channel to host:port as seen from the engine host. */
  forwardOut(host: string, port: number): Promise<ClientChannel> {
    return new Promise((resolve, reject) => {
      this.client.forwardOut('127.0.0.1', 0, host, port, (err, ch) => (err ? reject(err) : resolve(ch)));
    });
  }

  /** True when host:port on the engine host accepts a connection (the channel opens). */
  async accepts(host: string, port: number): Promise<boolean> {
    try {
      (await this.forwardOut(host, port)).close();
      return true;
    } catch {
      return false;
    }
  }

  /** Listens on 127.0.0.1 here and forwards each connection to host:port on the engine host. */
  async localForward(host: string, port: number): Promise<LocalForward> {
    const sockets = new Set<Socket>();
    const server = net.createServer((local) => {
      sockets.add(local);
      local.on('close', () => sockets.delete(local));
      local.on('error', () => local.destroy());
      this.forwardOut(host, port).then(
        (ch) => {
          local.pipe(ch).pipe(local);
          ch.on('close', () => local.destroy());
          local.on('close', () => ch.close());
        },
        () => local.destroy(),
      );
    });
    server.unref();
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', () => resolve()));
    this.forwards.add(server);
    return {
      port: (server.address() as AddressInfo).port,
      close: async () => {
        this.forwards.delete(server);
        for (const s of sockets) s.destroy();
        await new Promise<void>((r) => server.close(() => r()));
      },
    };
  }

  close(): void {
    for (const s of this.forwards) s.close();
    this.forwards.clear();
    this.client.end();
  }
}

/**
 * The socket methods an http.Agent calls on a kept-alive connection; a channel rides on the
 * SSH connection's socket, which carries the keepalives, so they have nothing to do.
 */
function asSocket(ch: ClientChannel): ClientChannel {
  const noop = function (this: ClientChannel) {
    return this;
  };
  return Object.assign(ch, { setKeepAlive: noop, setNoDelay: noop, setTimeout: noop, ref: noop, unref: noop });
}

function sshFailure(e: Error, target: SshTarget, auth: SshAuth, verdict: HostKeyVerdict): Error {
  const at = `DOCKER_HOST=${target.display}`;
  const name = knownHostsName(target.host, target.port);
  if (verdict === 'unknown') {
    return new ConfigError(
      `${at}: the host key of ${name} is not in ${auth.knownHostsPath} (GAIA2_SSH_KNOWN_HOSTS); ` +
        `check it and add it, e.g. \`ssh-keyscan -p ${target.port} ${target.host} >> ${auth.knownHostsPath}\``,
    );
  }
  if (verdict === 'mismatch' || verdict === 'revoked') {
    return new ConfigError(`${at}: the host key of ${name} does not match ${auth.knownHostsPath} (${verdict}); refusing to connect`);
  }
  if (/authentication methods failed/i.test(e.message)) {
    return new ConfigError(`${at}: login as ${target.user} was refused (key from ${auth.tried})`);
  }
  if (/passphrase|encrypted/i.test(e.message)) {
    return new ConfigError(`${at}: the key ${auth.tried} is encrypted; load it into ssh-agent (ssh-add) and set SSH_AUTH_SOCK`);
  }
  return new EngineError('engine_unavailable', `${at}: SSH connection failed (${e.message})`);
}
