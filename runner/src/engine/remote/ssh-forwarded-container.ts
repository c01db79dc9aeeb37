// A container on an ssh:// engine: the engine publishes its adapter on the engine host's
// loopback, and the runner reaches it through a local forward of the shared SSH connection
// (one listener per container port, closed with the container).
import type { AdapterEndpoint, ContainerFile, ContainerHandle, UnitState } from '../types.js';
import type { LocalForward, SshConnection } from './ssh-connection.js';

export class SshForwardedContainer implements ContainerHandle {
  private readonly forwards = new Map<number, Promise<{ forward: LocalForward; host: string; port: number }>>();

  constructor(
    private readonly inner: ContainerHandle,
    private readonly ssh: SshConnection,
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
    let f = this.forwards.get(port);
    if (!f) {
      f = (async () => {
        // What the engine reports is an address on its own host.
        const remote = new URL((await this.inner.adapter(port)).url);
        const host = remote.hostname.replace(/^\[|\]$/g, '');
        const remotePort = Number(remote.port);
        return { forward: await this.ssh.localForward(host, remotePort), host, port: remotePort };
      })();
      this.forwards.set(port, f);
      f.catch(() => this.forwards.delete(port));
    }
    const { forward, host, port: remotePort } = await f;
    return { url: `http://127.0.0.1:${forward.port}`, accepting: () => this.ssh.accepts(host, remotePort) };
  }

  putFiles(files: ContainerFile[]): Promise<void> {
    return this.inner.putFiles(files);
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

  async remove(): Promise<void> {
    const open = [...this.forwards.values()];
    this.forwards.clear();
    await Promise.all(open.map((f) => f.then((x) => x.forward.close(), () => {})));
    await this.inner.remove();
  }
}
