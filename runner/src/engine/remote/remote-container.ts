// A container on a remote engine: everything through the engine API as locally, except how
// the runner reaches a published port, which a `Reach` decides (the engine host's address with
// a connect look that allows for a slow link, or a local forward of the SSH connection, closed
// with the container).
import { acceptsConnections } from '../../net/accepts-connections.js';
import { urlHost } from '../../net/gateway.js';
import type { AdapterEndpoint, ContainerHandle, UnitState } from '../types.js';
import type { SshConnection } from './ssh-connection.js';

/** How the runner reaches `host:port` as the engine reported it (an address on the engine host). */
export type Reach = (host: string, port: number) => Promise<{ endpoint: AdapterEndpoint; close?: () => Promise<void> }>;

/** A bare connect over a WAN can take longer than the local look's 250 ms. */
const REMOTE_ACCEPT_TIMEOUT_MS = 3000;

/** TCP engines publish on their own address: connect there directly. */
export const directReach: Reach = async (host, port) => ({
  endpoint: { url: `http://${urlHost(host)}:${port}`, accepting: () => acceptsConnections(host, port, REMOTE_ACCEPT_TIMEOUT_MS) },
});

/** SSH engines publish on their loopback: a local listener forwards through the connection. */
export function sshReach(ssh: SshConnection): Reach {
  return async (host, port) => {
    const forward = await ssh.localForward(host, port);
    return { endpoint: { url: `http://127.0.0.1:${forward.port}`, accepting: () => ssh.accepts(host, port) }, close: forward.close };
  };
}

export class RemoteContainer implements ContainerHandle {
  private readonly reached = new Map<number, ReturnType<Reach>>();

  constructor(
    private readonly inner: ContainerHandle,
    private readonly reach: Reach,
  ) {}

  get id(): string {
    return this.inner.id;
  }

  get name(): string {
    return this.inner.name;
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  async adapter(port: number): Promise<AdapterEndpoint> {
    let r = this.reached.get(port);
    if (!r) {
      r = this.inner.adapter(port).then((ep) => {
        const u = new URL(ep.url);
        return this.reach(u.hostname.replace(/^\[|\]$/g, ''), Number(u.port));
      });
      this.reached.set(port, r);
      r.catch(() => this.reached.delete(port));
    }
    return (await r).endpoint;
  }

  readFile(path: string): Promise<Buffer | null> {
    return this.inner.readFile(path);
  }

  readFiles(dir: string, names: readonly string[]): Promise<Map<string, Buffer>> {
    return this.inner.readFiles(dir, names);
  }

  state(): Promise<UnitState> {
    return this.inner.state();
  }

  kill(signal?: string): Promise<void> {
    return this.inner.kill(signal);
  }

  logs(tail?: number): Promise<string> {
    return this.inner.logs(tail);
  }

  /** Closes the local forwards, then removes (retries of a dropped request: removeQuietly). */
  async remove(): Promise<void> {
    const open = [...this.reached.values()];
    this.reached.clear();
    await Promise.all(open.map((r) => r.then((x) => x.close?.(), () => {})));
    await this.inner.remove();
  }
}
