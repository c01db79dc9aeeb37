// The container backend interface. One small interface per backend (Docker Engine API today,
// Kubernetes later), capability flags for what a backend can do, lifecycle as plain methods.
// The orchestrator and the scenario run only ever see these types.

export interface EngineCapabilities {
  /** Can publish a container port on a host loopback port chosen by the engine. */
  publishPorts: boolean;
  /** Can copy files in and out through the API (no bind mounts, works remotely). */
  archives: boolean;
  /** Can build images from a context. */
  build: boolean;
  /** Supports host networking (`network = "host"`). */
  hostNetwork: boolean;
}

export interface ContainerSpec {
  image: string;
  name?: string;
  /** Container environment. Values never appear in argv or logs: they go through the API body. */
  env: Record<string, string>;
  labels: Record<string, string>;
  entrypoint?: string[];
  cmd?: string[];
  /** Container port to publish on 127.0.0.1 (engine-chosen host port), bridge mode only. */
  publishPort?: number;
  network: 'bridge' | 'host';
  /** Extra /etc/hosts entries, e.g. host.containers.internal:host-gateway. */
  extraHosts?: string[];
  /** Files written into the container before it starts: absolute path → content. */
  files?: ContainerFile[];
}

export interface ContainerFile {
  path: string;
  content: string | Buffer;
  mode?: number;
}

export interface ContainerHandle {
  readonly id: string;
  readonly name: string;
  start(): Promise<void>;
  /** Host address of the published port (bridge) or 127.0.0.1:port (host network). */
  endpoint(port: number): Promise<{ host: string; port: number }>;
  /**
   * Writes files (absolute paths) in one archive request, in the given order: a reader that
   * sees the last file knows the earlier ones are complete. Cheaper once the container runs.
   */
  putFiles(files: ContainerFile[]): Promise<void>;
  /** Reads one file out of the container; null when it does not exist. */
  readFile(path: string): Promise<Buffer | null>;
  /** Reads the named files (relative paths) of one directory in a single request; missing ones are absent. */
  readFiles(dir: string, names: readonly string[]): Promise<Map<string, Buffer>>;
  /** running | exited | created | …, plus the exit code once exited. */
  state(): Promise<{ status: string; running: boolean; exitCode: number | null; oomKilled?: boolean }>;
  /** Kills the main process (used by tests and by Ctrl-C handling). */
  kill(signal?: string): Promise<void>;
  /** Last lines of the container's stdout/stderr. */
  logs(tail?: number): Promise<string>;
  /** Force-removes the container; never throws if it is already gone. */
  remove(): Promise<void>;
}

export interface ContainerInfo {
  id: string;
  name: string;
  image: string;
  state: string;
  labels: Record<string, string>;
}

export interface BuildOptions {
  contextDir: string;
  dockerfile?: string;
  tag: string;
  buildArgs?: Record<string, string>;
  onProgress?: (line: string) => void;
}

export interface ContainerEngine {
  readonly name: string;
  readonly capabilities: EngineCapabilities;
  /** Throws EngineError('engine_unavailable') quickly when the engine does not answer. */
  ping(): Promise<void>;
  imageExists(ref: string): Promise<boolean>;
  /** Labels of a local image; null when the image does not exist. */
  imageLabels(ref: string): Promise<Record<string, string> | null>;
  /** The image's id (sha256:…) for run records; null when absent. Optional for test engines. */
  imageId?(ref: string): Promise<string | null>;
  create(spec: ContainerSpec): Promise<ContainerHandle>;
  listByLabels(labels: Record<string, string>): Promise<ContainerInfo[]>;
  remove(id: string): Promise<void>;
  build(opts: BuildOptions): Promise<void>;
  /** Pulls an image; false when no registry answers within the timeout. */
  pull(ref: string, timeoutMs: number): Promise<boolean>;
  /** Releases the connection and any engine service this process started. */
  close(): Promise<void>;
}
