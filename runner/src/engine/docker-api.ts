// The unit backend over the Docker Engine API (dockerode). Docker and Podman
// (`podman system service`) both serve it; everything goes through the API, so a remote
// engine behaves like a local one. Its images are a DockerImageStore on the same client.
import { withDeadline } from '../net/deadline.js';
import Docker from 'dockerode';
import type { UnitBackend, ContainerHandle, ContainerInfo, ContainerSpec, EngineCapabilities, EngineDescription, RunNeeds, RunScope, RunScopeOptions } from './types.js';
import { checkRunNeeds } from './preflight.js';
import { LOCAL_ENGINE_CAPABILITIES } from './capabilities.js';
import { bridgeNetwork } from '../net/gateway.js';
import { startLoopbackRelays } from '../net/loopback-relays.js';
import type { Endpoint } from './discover.js';
import { EngineError, wrapEngineError } from './errors.js';
import { DockerContainer, hostEndpoint, publishedPort, removeQuietly } from './docker-container.js';
import { DockerImageStore } from './docker-images.js';
import { tcpReach, type Reach } from './reach.js';

const PING_TIMEOUT_MS = 3000;

export class DockerApiEngine implements UnitBackend {
  readonly name = 'docker-api';
  readonly capabilities: EngineCapabilities = LOCAL_ENGINE_CAPABILITIES;
  /** The API client (protected: a remote engine pings with its own diagnosis). */
  protected readonly docker: Docker;
  readonly images: DockerImageStore;

  constructor(
    private readonly endpoint: Endpoint,
    /** How the runner reaches published ports: where they are published, unless an SSH engine forwards them. */
    private readonly reach: Reach = tcpReach(),
  ) {
    this.docker = new Docker(endpoint.modem ?? { socketPath: endpoint.socketPath });
    this.images = new DockerImageStore(this.docker);
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

  private version?: Promise<Docker.DockerVersion | null>;

  private engineVersion(): Promise<Docker.DockerVersion | null> {
    this.version ??= this.docker.version().catch(() => null);
    return this.version;
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

  preflight(needs: RunNeeds): Promise<void> {
    return checkRunNeeds(this, needs);
  }

  /**
   * The run's scope: loopback services reach bridged containers through relays on the bridge gateway; with host
   * networking the containers share the runner's loopback and need nothing.
   */
  async openRun(o: RunScopeOptions): Promise<RunScope> {
    if (o.network === 'host') return { env: { ...o.env }, close: async () => {} };
    return startLoopbackRelays(o.env, { bridge: () => bridgeNetwork(this.docker), ...(o.log ? { log: o.log } : {}) });
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
        CapAdd: spec.capAdd?.length ? spec.capAdd : undefined,
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
        handle = new DockerContainer(container, spec.name ?? container.id, () => published && this.heldPorts.delete(published), endpoint, this.reach);
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

  async close(): Promise<void> {
    const child = this.endpoint.child;
    if (child && child.exitCode === null) child.kill('SIGTERM');
  }
}
