// ContainerEngine over the Docker Engine API (dockerode). Docker and Podman
// (`podman system service`) both serve it; everything goes through the API, so a remote
// engine behaves like a local one.
import { withDeadline } from '../net/deadline.js';
import Docker from 'dockerode';
import type { Readable } from 'node:stream';
import { readdir, readFile, readlink, stat } from 'node:fs/promises';
import { join, relative, posix } from 'node:path';
import type {
  BuildOptions,
  ContainerEngine,
  ContainerHandle,
  ContainerInfo,
  ContainerSpec,
  EngineCapabilities,
  EngineDescription,
  HostServices,
  PushOptions,
} from './types.js';
import { bridgeNetwork } from '../net/gateway.js';
import { startLoopbackRelays } from '../net/loopback-relays.js';
import type { Endpoint } from './discover.js';
import { EngineError, engineErrorMessage, wrapEngineError } from './errors.js';
import { DockerContainer, hostEndpoint, publishedPort, removeQuietly } from './docker-container.js';
import { packFiles, type TarEntry } from './archive.js';
import { readProgress } from './progress-stream.js';

const PING_TIMEOUT_MS = 3000;

export class DockerApiEngine implements ContainerEngine {
  readonly name = 'docker-api';
  readonly capabilities: EngineCapabilities = { publishPorts: true, archives: true, build: true, hostNetwork: true };
  /** The API client (protected: a remote engine pings with its own diagnosis). */
  protected readonly docker: Docker;

  constructor(private readonly endpoint: Endpoint) {
    this.docker = new Docker(endpoint.modem ?? { socketPath: endpoint.socketPath });
  }

  async ping(): Promise<void> {
    try {
      await withDeadline(this.docker.ping(), PING_TIMEOUT_MS);
    } catch (e) {
      throw new EngineError(
        'engine_unavailable',
        `container engine at ${this.endpoint.source} is not reachable (${(e as Error).message}). ` +
          'Start it (e.g. `npm run setup-engine`) or point DOCKER_HOST at a running engine.',
      );
    }
  }

  async imageExists(ref: string): Promise<boolean> {
    return (await this.imageLabels(ref)) !== null;
  }

  async imagesWithLabel(label: string): Promise<Array<{ tags: string[]; labels: Record<string, string> }>> {
    const list = await this.docker.listImages({ filters: { label: [label] } }).catch((e: unknown) => {
      throw wrapEngineError(e, `listing images labelled ${label}`);
    });
    return list.map((i) => ({ tags: (i.RepoTags ?? []).filter((t) => t !== '<none>:<none>'), labels: i.Labels ?? {} }));
  }

  async imageLabels(ref: string): Promise<Record<string, string> | null> {
    const info = await this.inspectImage(ref);
    return info ? (info.Config?.Labels ?? {}) : null;
  }

  /** The image's inspect answer; null when it does not exist. */
  private async inspectImage(ref: string): Promise<Docker.ImageInspectInfo | null> {
    try {
      return await this.docker.getImage(ref).inspect();
    } catch (e) {
      if ((e as { statusCode?: number }).statusCode === 404) return null;
      throw wrapEngineError(e, `inspecting image ${ref}`);
    }
  }

  private version?: Promise<Docker.DockerVersion | null>;

  private engineVersion(): Promise<Docker.DockerVersion | null> {
    this.version ??= this.docker.version().catch(() => null);
    return this.version;
  }

  async imageId(ref: string): Promise<string | null> {
    return (await this.inspectImage(ref))?.Id ?? null;
  }

  /** Podman adds host.containers.internal itself and (4.x) rejects "host-gateway". */
  private async engineFlavour(): Promise<'podman' | 'docker'> {
    const v = await this.engineVersion();
    return (v?.Components ?? []).some((c) => /podman/i.test(c.Name)) ? 'podman' : 'docker';
  }

  async describe(): Promise<EngineDescription> {
    const v = await this.engineVersion();
    const podman = (v?.Components ?? []).find((c) => /podman/i.test(c.Name));
    return {
      kind: podman ? 'podman' : 'docker',
      version: podman?.Version ?? v?.Version ?? null,
      apiVersion: v?.ApiVersion ?? null,
      endpoint: this.endpoint.source.replace(/^DOCKER_HOST=/, ''),
      remote: false,
    };
  }

  /**
   * Loopback services reach bridged containers through relays on the bridge gateway; with host
   * networking the containers share the runner's loopback and need nothing.
   */
  async reachHostServices(env: Record<string, string>, o: { network: 'bridge' | 'host'; log?: (line: string) => void }): Promise<HostServices> {
    if (o.network === 'host') return { env: { ...env }, close: async () => {} };
    return startLoopbackRelays(env, { bridge: () => bridgeNetwork(this.docker), ...(o.log ? { log: o.log } : {}) });
  }

  async create(spec: ContainerSpec): Promise<ContainerHandle> {
    const extraHosts =
      spec.extraHosts && (await this.engineFlavour()) === 'podman'
        ? spec.extraHosts.filter((h) => !h.endsWith(':host-gateway'))
        : spec.extraHosts;
    const portKey = spec.publishPort ? `${spec.publishPort}/tcp` : undefined;
    const bridge = spec.network === 'bridge';
    const body = {
      Image: spec.image,
      name: spec.name,
      Env: Object.entries(spec.env).map(([k, v]) => `${k}=${v}`),
      Labels: spec.labels,
      Entrypoint: spec.entrypoint,
      Cmd: spec.cmd,
      ExposedPorts: portKey && bridge ? { [portKey]: {} } : undefined,
      HostConfig: {
        NetworkMode: spec.network,
        PortBindings: portKey && bridge ? { [portKey]: [{ HostIp: this.endpoint.publishIp ?? '127.0.0.1', HostPort: '' }] } : undefined,
        ExtraHosts: extraHosts?.length ? extraHosts : undefined,
      },
    };
    // Podman picks the host port at create but binds it only at start: two containers created
    // close together can get the same port, and then the second start fails and leaves the
    // first one unreachable. A port one of our live containers holds is refused here: that
    // container is removed and created again, for a new port. (Docker chooses at start and
    // answers an empty port here, unless the port was given: the same check covers both.)
    let handle: DockerContainer;
    for (let attempt = 1; ; attempt++) {
      const container = await this.createOnce(body, spec.image);
      const published = portKey && bridge ? await publishedPort(container, portKey) : null;
      if (!published || !this.heldPorts.has(published)) {
        if (published) this.heldPorts.add(published);
        const endpoint = published && spec.publishPort ? { containerPort: spec.publishPort, endpoint: hostEndpoint(published) } : null;
        handle = new DockerContainer(container, spec.name ?? container.id, () => published && this.heldPorts.delete(published), endpoint);
        break;
      }
      await removeQuietly(container);
      if (attempt >= 5) throw new EngineError('container_start_failed', `the engine kept assigning host ports already in use (${published})`);
    }
    if (spec.files?.length) {
      try {
        await handle.putFiles(spec.files);
      } catch (e) {
        await handle.remove();
        throw e;
      }
    }
    return handle;
  }

  /** Host ports (ip:port) published by this engine's containers that are not removed yet. */
  private readonly heldPorts = new Set<string>();

  private async createOnce(body: Docker.ContainerCreateOptions, image: string): Promise<Docker.Container> {
    try {
      return await this.docker.createContainer(body);
    } catch (e) {
      const status = (e as { statusCode?: number }).statusCode;
      if (status === 404) {
        throw new EngineError('image_missing', `image ${image} not found. Build it with \`gaia2-runner build-image\` (or \`npm run build-image\`).`);
      }
      throw wrapEngineError(e, `creating a container from ${image}`, 'container_start_failed');
    }
  }

  async listByLabels(labels: Record<string, string>): Promise<ContainerInfo[]> {
    const filters = { label: Object.entries(labels).map(([k, v]) => (v === '' ? k : `${k}=${v}`)) };
    const list = await this.docker.listContainers({ all: true, filters: JSON.stringify(filters) });
    return list.map((c) => ({
      id: c.Id,
      name: (c.Names?.[0] ?? '').replace(/^\//, ''),
      image: c.Image,
      state: c.State,
      labels: c.Labels ?? {},
    }));
  }

  async remove(id: string): Promise<void> {
    await removeQuietly(this.docker.getContainer(id));
  }

  async build(opts: BuildOptions): Promise<void> {
    const entries = await walkContext(opts.contextDir);
    const tar = await packFiles(entries);
    const stream = (await this.docker.buildImage(tar as unknown as NodeJS.ReadableStream, {
      t: opts.tag,
      dockerfile: opts.dockerfile ?? 'Dockerfile',
      // podman answers 400 when the parameter is absent
      buildargs: opts.buildArgs ?? {},
      networkmode: 'host',
      rm: true,
    } as Docker.ImageBuildOptions)) as Readable;
    try {
      await readProgress(stream, (ev) => {
        const line = (ev.stream ?? ev.error ?? '').trimEnd();
        if (line) opts.onProgress?.(line);
      });
    } catch (e) {
      throw new EngineError('internal_error', `image build failed: ${engineErrorMessage(e)}`);
    }
  }

  async push(source: string, ref: string, o: PushOptions = {}): Promise<void> {
    const { repo, tag } = splitRef(ref);
    const registry = repo.split('/')[0]!;
    const insecure = o.insecure || /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?$/.test(registry);
    try {
      if (source !== ref) await this.docker.getImage(source).tag({ repo, tag });
      // Docker reads the credentials from X-Registry-Auth (an empty object when there are none);
      // podman also takes tlsVerify, Docker treats loopback registries as insecure by itself.
      const stream = (await this.docker.getImage(repo).push({
        tag,
        authconfig: o.auth ? { ...o.auth, serveraddress: registry } : {},
        ...(insecure ? { tlsVerify: false } : {}),
      } as Docker.ImagePushOptions)) as Readable;
      await readProgress(stream, (ev) => {
        if (ev.status) o.onProgress?.(`${ev.status}${ev.progress ? ` ${ev.progress}` : ''}`);
      });
    } catch (e) {
      throw new EngineError('engine_unavailable', `pushing ${ref}: ${engineErrorMessage(e)}`);
    }
  }

  async pull(ref: string, timeoutMs: number, log?: (line: string) => void): Promise<boolean> {
    const attempt = (async () => {
      // Docker answers an unreachable registry with 500 (dockerode rejects); podman answers 200
      // and puts the error into the stream; either way the image must exist afterwards.
      await readProgress((await this.docker.pull(ref)) as Readable);
      if (await this.imageExists(ref)) return true;
      log?.(`pull of ${ref} ended without the image`);
      return false;
    })().catch((e: unknown) => {
      log?.(`pull of ${ref} failed: ${engineErrorMessage(e)}`);
      return false;
    });
    return withDeadline(attempt, timeoutMs).catch((e: unknown) => {
      log?.(`pull of ${ref}: ${(e as Error).message}`);
      return false;
    });
  }

  async importImage(rootfsTar: Readable, ref: string, o: { changes?: string[] } = {}): Promise<void> {
    try {
      // `repo` carries the tag: podman 4 ignores a separate `tag` parameter on import.
      const stream = (await this.docker.importImage(rootfsTar as unknown as NodeJS.ReadableStream, {
        repo: ref,
        ...(o.changes?.length ? { changes: o.changes } : {}),
      } as Record<string, unknown>)) as Readable;
      await readProgress(stream);
    } catch (e) {
      throw new EngineError('internal_error', `importing ${ref} into the engine failed: ${engineErrorMessage(e)}`);
    }
    if (!(await this.imageExists(ref))) throw new EngineError('internal_error', `importing ${ref}: the engine answered but holds no such image`);
  }

  async close(): Promise<void> {
    const child = this.endpoint.child;
    if (child && child.exitCode === null) child.kill('SIGTERM');
  }
}

/** REGISTRY/NAME:TAG → repository and tag (a port in the registry is not a tag). */
export function splitRef(ref: string): { repo: string; tag: string } {
  const slash = ref.lastIndexOf('/');
  const colon = ref.lastIndexOf(':');
  return colon > slash ? { repo: ref.slice(0, colon), tag: ref.slice(colon + 1) } : { repo: ref, tag: 'latest' };
}

async function walkContext(dir: string): Promise<TarEntry[]> {
  const out: TarEntry[] = [];
  async function walk(d: string): Promise<void> {
    for (const ent of await readdir(d, { withFileTypes: true })) {
      const p = join(d, ent.name);
      if (ent.isDirectory()) await walk(p);
      // (an agent package's node_modules/.bin holds links)
      else if (ent.isSymbolicLink()) out.push({ name: relative(dir, p).split('\\').join(posix.sep), content: '', linkname: await readlink(p) });
      else if (ent.isFile()) {
        const st = await stat(p);
        out.push({ name: relative(dir, p).split('\\').join(posix.sep), content: await readFile(p), mode: st.mode & 0o777 });
      }
    }
  }
  await walk(dir);
  return out;
}
