// One container of a Docker Engine API engine (podman or Docker), as a ContainerHandle: start,
// the adapter's published port, files in and out through the archive API, state, logs and
// removal that tolerates the engine still cleaning up after an exit.
import type Docker from 'dockerode';
import type { Readable } from 'node:stream';
import type { AdapterEndpoint, ContainerFile, ContainerHandle, TreeEntry, UnitState } from './types.js';
import { tcpReach, type Reach, type Reached } from './reach.js';
import { EngineError, engineErrorMessage, wrapEngineError } from './errors.js';
import { filesOf, firstFileOf, packStream, treeOf, type TarEntry } from './archive.js';

/** The host ip:port a created container's port is published on; null when none was assigned. */
export async function publishedPort(c: Docker.Container, portKey: string): Promise<string | null> {
  const info = await c.inspect().catch(() => null);
  const b = info?.HostConfig?.PortBindings?.[portKey]?.[0];
  return b?.HostPort ? `${b.HostIp || '0.0.0.0'}:${b.HostPort}` : null;
}

/** "ip:port" → where the runner connects (a wildcard bind is reached on loopback). */
export function hostEndpoint(published: string): { host: string; port: number } {
  const i = published.lastIndexOf(':');
  const ip = published.slice(0, i);
  return { host: !ip || ip === '0.0.0.0' ? '127.0.0.1' : ip, port: Number(published.slice(i + 1)) };
}

export class DockerContainer implements ContainerHandle {
  /** Ports reached so far (a forward is opened once per port and closed at removal). */
  private readonly reached = new Map<number, Promise<Reached>>();

  constructor(
    private readonly c: Docker.Container,
    readonly name: string,
    /** Called once the container is removed (frees its host port for the next create). */
    private readonly onRemoved: () => void = () => {},
    private readonly published: { containerPort: number; endpoint: { host: string; port: number } } | null = null,
    /** How the runner reaches a published address (the engine's strategy). */
    private readonly reach: Reach = tcpReach(),
  ) {}

  get id(): string {
    return this.c.id;
  }

  async start(): Promise<void> {
    try {
      await this.c.start();
    } catch (e) {
      throw wrapEngineError(e, `starting container ${this.name}`, 'container_start_failed');
    }
  }

  async adapter(port: number): Promise<AdapterEndpoint> {
    let r = this.reached.get(port);
    if (!r) {
      r = this.hostPort(port).then((p) => this.reach(p.host, p.port));
      this.reached.set(port, r);
      r.catch(() => this.reached.delete(port));
    }
    return (await r).endpoint;
  }

  private async hostPort(port: number): Promise<{ host: string; port: number }> {
    // Known since create (the port check read it): no second inspect.
    if (this.published && this.published.containerPort === port) return this.published.endpoint;
    const info = await this.c.inspect();
    if (info.HostConfig?.NetworkMode === 'host') return { host: '127.0.0.1', port };
    const binding = info.NetworkSettings?.Ports?.[`${port}/tcp`]?.[0];
    if (!binding?.HostPort) {
      throw new EngineError('container_start_failed', `container ${this.name} has no published port for ${port}/tcp`);
    }
    const host = !binding.HostIp || binding.HostIp === '0.0.0.0' ? '127.0.0.1' : binding.HostIp;
    return { host, port: Number(binding.HostPort) };
  }

  async putFiles(files: ContainerFile[]): Promise<void> {
    try {
      // Streamed: a file given as StreamedContent goes from disk into the request.
      const tar = packStream(files.map((f): TarEntry => ({ ...f, name: f.path.replace(/^\/+/, '') })));
      await this.c.putArchive(tar, { path: '/' });
    } catch (e) {
      throw wrapEngineError(e, `copying files into ${this.name}`, 'container_start_failed');
    }
  }

  async readFile(path: string): Promise<Buffer | null> {
    try {
      const stream = (await this.c.getArchive({ path })) as unknown as Readable;
      return await firstFileOf(stream);
    } catch (e) {
      if ((e as { statusCode?: number }).statusCode === 404) return null;
      throw wrapEngineError(e, `reading ${path} from ${this.name}`, 'artifact_error');
    }
  }

  async readFiles(dir: string, names: readonly string[]): Promise<Map<string, Buffer>> {
    try {
      const stream = (await this.c.getArchive({ path: dir })) as unknown as Readable;
      return await filesOf(stream, new Set(names));
    } catch (e) {
      if ((e as { statusCode?: number }).statusCode === 404) return new Map();
      throw wrapEngineError(e, `reading ${dir} from ${this.name}`, 'artifact_error');
    }
  }

  async readTree(dir: string): Promise<TreeEntry[]> {
    try {
      const stream = (await this.c.getArchive({ path: dir })) as unknown as Readable;
      return await treeOf(stream);
    } catch (e) {
      if ((e as { statusCode?: number }).statusCode === 404) return [];
      throw wrapEngineError(e, `reading ${dir} from ${this.name}`, 'artifact_error');
    }
  }

  async state(): Promise<UnitState> {
    try {
      const s = (await this.c.inspect()).State;
      // Podman says "stopped" between a container's own exit and its cleanup; Docker "exited".
      const status = !s.Running && s.Status === 'stopped' ? 'exited' : s.Status;
      return { status, running: s.Running, exitCode: s.Running ? null : s.ExitCode, oomKilled: s.OOMKilled };
    } catch (e) {
      if ((e as { statusCode?: number }).statusCode === 404) return { status: 'removed', running: false, exitCode: null };
      throw wrapEngineError(e, `inspecting ${this.name}`);
    }
  }

  async kill(signal = 'SIGKILL'): Promise<void> {
    try {
      await this.c.kill({ signal });
    } catch {
      // already stopped
    }
  }

  async logs(tail = 50): Promise<string> {
    try {
      const buf = (await this.c.logs({ stdout: true, stderr: true, tail, follow: false })) as unknown as Buffer;
      return demuxLogs(Buffer.isBuffer(buf) ? buf : Buffer.from(String(buf)));
    } catch {
      return '';
    }
  }

  /** Closes what reaching its ports opened, then removes (retries of a dropped request: removeQuietly). */
  async remove(): Promise<void> {
    const open = [...this.reached.values()];
    this.reached.clear();
    await Promise.all(open.map((r) => r.then((x) => x.close?.(), () => {})));
    try {
      await removeQuietly(this.c);
    } finally {
      this.onRemoved();
    }
  }
}

/**
 * Force-removes a container; gone already is fine. Removal is what must never be lost, so two
 * passing troubles are retried:
 * - the engine still stopping or cleaning the container up (right after it exited by itself):
 *   Docker answers 409 then, podman 4 a 500 whose message says "container state improper" (its
 *   container is "stopped", not yet "exited"); retried for a few seconds;
 * - the request dying with its connection (a kept-alive connection the far end closed just then,
 *   a dropped link to a remote engine); sent again a few times, removing is idempotent.
 */
export async function removeQuietly(c: Docker.Container): Promise<void> {
  let dropped = 0;
  for (let attempt = 0; ; attempt++) {
    try {
      await c.remove({ force: true, v: true });
      return;
    } catch (e) {
      const status = (e as { statusCode?: number }).statusCode;
      if (status === 404) return;
      const busy = status === 409 || (status === 500 && /container state improper/i.test(engineErrorMessage(e)));
      const lost = status === undefined && CONNECTION_LOST.test(`${(e as { code?: string }).code ?? ''} ${(e as Error).message ?? ''}`) && ++dropped < 3;
      if (!(busy || lost) || attempt >= 15) throw wrapEngineError(e, `removing container ${c.id.slice(0, 12)}`);
      await new Promise((r) => setTimeout(r, lost ? 250 * dropped : 200));
    }
  }
}

/** A request that died with its connection, not one the engine answered. */
const CONNECTION_LOST = /ECONNRESET|EPIPE|socket hang up|ETIMEDOUT|Channel open failure|Not connected/i;

/** Strips the 8-byte stream headers of non-TTY container logs. */
export function demuxLogs(buf: Buffer): string {
  const out: Buffer[] = [];
  let i = 0;
  while (i + 8 <= buf.length && (buf[i] === 1 || buf[i] === 2) && buf[i + 1] === 0) {
    const len = buf.readUInt32BE(i + 4);
    out.push(buf.subarray(i + 8, i + 8 + len));
    i += 8 + len;
  }
  return i === 0 ? buf.toString('utf8') : Buffer.concat(out).toString('utf8');
}

