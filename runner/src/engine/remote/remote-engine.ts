// A Docker Engine API on another machine (DOCKER_HOST=tcp:// or ssh://). Everything the run
// needs goes through the same API as locally (create, archives in and out, state, logs,
// removal); what differs is answered here:
//   - adapter ports: over TCP the engine publishes them on its own address (the one the runner
//     dials for the API) and the runner connects there; over SSH they stay on the engine host's
//     loopback and the runner reaches them through a local forward of the SSH connection.
//   - host services (a model endpoint on the runner's loopback): a relay on the runner's own
//     address on the route to the engine host, accepting only that host; units get URLs that
//     point at it. Host networking cannot give units the runner's loopback, so it is refused.
import { startLoopbackRelays } from '../../net/loopback-relays.js';
import { REMOTE_ENGINE_CAPABILITIES } from '../capabilities.js';
import { DockerApiEngine } from '../docker-api.js';
import type { Endpoint } from '../discover.js';
import { EngineError } from '../errors.js';
import type { EngineCapabilities, EngineDescription, RunScope, RunScopeOptions } from '../types.js';
import type { RemoteTarget } from './docker-host.js';
import type { SshConnection } from './ssh-connection.js';
import { tcpReach } from '../reach.js';
import { sshReach } from './ssh-reach.js';
import { localAddressToward } from './tcp-reach.js';
import { withDeadline } from '../../net/deadline.js';

const PING_TIMEOUT_MS = 10_000;
/** A bare connect over a WAN can take longer than the local look's 250 ms. */
const REMOTE_ACCEPT_TIMEOUT_MS = 3000;

export class RemoteDockerEngine extends DockerApiEngine {
  override readonly capabilities: EngineCapabilities = REMOTE_ENGINE_CAPABILITIES;

  constructor(
    private readonly target: RemoteTarget,
    endpoint: Endpoint,
    /** The engine host's IP address (DOCKER_HOST's host, resolved). */
    private readonly engineIp: string,
    private readonly ssh: SshConnection | null,
  ) {
    super(endpoint, ssh ? sshReach(ssh) : tcpReach(REMOTE_ACCEPT_TIMEOUT_MS));
  }

  /** The host already accepted a TCP connection (connect.ts): a failure here is the protocol above. */
  override async ping(): Promise<void> {
    try {
      await withDeadline(this.docker.ping(), PING_TIMEOUT_MS);
    } catch (e) {
      const why = (e as Error).message.replace(/\s+/g, ' ').trim();
      throw new EngineError('engine_unavailable', `DOCKER_HOST=${this.target.display}: the host answers, but not as a container engine (${why})${this.hint()}`);
    }
  }

  /** Why a reachable host may still not answer as an engine. */
  private hint(): string {
    const t = this.target;
    if (t.kind === 'ssh') return this.ssh?.lastDialError ? ` (${this.ssh.lastDialError})` : '';
    if (!t.tls && t.port === 2376) return ' (2376 is the engine TLS port: set DOCKER_TLS_VERIFY=1 and DOCKER_CERT_PATH)';
    if (t.tls) return ` (TLS with the files in ${t.tls.certPath}; is the engine serving TLS on this port?)`;
    return '';
  }

  override async describe(): Promise<EngineDescription> {
    return { ...(await super.describe()), endpoint: this.target.display, remote: true };
  }

  override async openRun(o: RunScopeOptions): Promise<RunScope> {
    // (host networking never gets here: preflight refuses it before the run)
    return startLoopbackRelays(o.env, {
      bridge: async () => ({ gateway: await localAddressToward(this.engineIp), subnet: `${this.engineIp}/${this.engineIp.includes(':') ? 128 : 32}` }),
      urlHost: 'listen-address',
      ...(o.log ? { log: o.log } : {}),
    });
  }

  override async close(): Promise<void> {
    await super.close();
    this.ssh?.close();
  }
}
