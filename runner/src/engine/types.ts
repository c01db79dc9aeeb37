// The backend interface: where a scenario run executes. A unit backend per kind (a local or
// remote Docker Engine API, a Kubernetes cluster) with capability flags for what it can do and
// lifecycle as plain methods, and an image store only the engines that hold images have. The
// orchestrator and the scenario run only ever see these types: what differs between backends
// (how the adapter is reached, how files get in, what a dead unit looks like, how host
// services are made reachable) is answered here, never by a branch on the backend's kind in
// run/ or orchestrator/.
import type { Readable } from 'node:stream';
import type { SecureContext } from 'node:tls';
import type { ErrorKind } from '@gaia2/contract/result';


/** What a backend can do that a plan may ask for; checked before anything runs. */
export interface EngineCapabilities {
  /** Units can share this machine's network (`network = "host"`). */
  hostNetwork: boolean;
  /**
   * Services on this machine's loopback (a local model endpoint, the model gateway) can be made
   * reachable from units (relays, tunnels); without it such URLs are refused before the run.
   */
  hostServices: boolean;
  /**
   * Creates nothing: the backend writes out what it would create (`--dry-run --manifests`).
   * What a run starts beside its units (the model gateway in the cluster) is not started either.
   */
  dryRun: boolean;
  /**
   * Files can be written into a unit before it starts (a CA bundle outside the adapter's
   * reach); without it only files under the image's upload root reach a unit, through its
   * adapter, so the run's other files are refused before the run and its image must take the
   * scenario after start.
   */
  filesAtCreate: boolean;
  /**
   * The run's model gateway runs beside the units (in the backend's cluster) instead of on this
   * machine; the gateway asks the backend for that place (engine/kubernetes/cluster.ts).
   */
  gatewayBesideUnits: boolean;
  /** Units can be given Linux capabilities (`ContainerSpec.capAdd`): the sealed network's filter needs NET_ADMIN. */
  capAdd: boolean;
}

/** What a run asks of its backend: checked by `preflight` before any unit exists. */
export interface RunNeeds {
  network: 'bridge' | 'host';
  /** The units' environment (before per-unit tokens): the services its URLs name. */
  env: Record<string, string>;
  /** Files every unit gets beside the scenario, each with the setting that asks for it. */
  files?: ReadonlyArray<{ path: string; setting: string }>;
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
  /** Linux capabilities added to the engine's default set (NET_ADMIN for the sealed network's filter). */
  capAdd?: string[];
  /** Files written into the container before it starts: absolute path → content. */
  files?: ContainerFile[];
}

export interface ContainerFile {
  path: string;
  content: string | Buffer | StreamedContent;
  mode?: number;
  /** A directory (content ignored) or a symlink to `linkname`, as a carried home holds them. */
  dir?: boolean;
  linkname?: string;
  /** Owner (numeric) where it matters: a carried home stays the agent's. */
  uid?: number;
  gid?: number;
}

/**
 * Content read when it is sent and never held whole (a planned scenario of megabytes): its
 * size up front, and a fresh stream each time it is sent (a retried delivery opens it again).
 */
export interface StreamedContent {
  size: number;
  open(): Readable;
}

/** One entry of a directory read whole out of a unit (a chain's carried home). */
export interface TreeEntry {
  /** Relative to the directory read, '/'-separated, never empty. */
  path: string;
  type: 'file' | 'dir' | 'symlink';
  mode: number;
  uid: number;
  gid: number;
  /** A file's bytes. */
  content?: Buffer;
  /** A symlink's target. */
  linkname?: string;
}

/** How the runner reaches a port of a running unit over HTTP. */
export interface AdapterEndpoint {
  /** Base URL, path prefix included: `http://127.0.0.1:41234`, or a proxy URL ending in `/proxy`. */
  url: string;
  /** Headers every request carries (a proxy's credentials). Never logged. */
  headers?: Record<string, string>;
  /** TLS material for the connection (a proxy's CA, a client certificate). */
  tls?: {
    ca?: string | Buffer;
    cert?: string | Buffer;
    key?: string | Buffer;
    rejectUnauthorized?: boolean;
    /** The same material prepared once (a context per connection costs memory at scale). */
    secureContext?: SecureContext;
  };
  /**
   * Where the adapter token goes: `authorization` (Bearer, the default), or the contract's own
   * header when a proxy in between consumes Authorization (ADAPTER_TOKEN_HEADER).
   */
  tokenHeader?: 'authorization' | 'own';
  /**
   * A cheap look whether the port accepts connections yet (a bare TCP connect), used while the
   * unit boots; absent where no such look exists (a proxy answers for the unit).
   */
  accepting?(): Promise<boolean>;
}

/** What the engine says of a unit; `failure` is a typed infrastructure error when it is known. */
export interface UnitState {
  status: string;
  running: boolean;
  exitCode: number | null;
  oomKilled?: boolean;
  /** The backend's own diagnosis (image pull failed, unschedulable, evicted, …). */
  failure?: { kind: ErrorKind; message: string };
}

export interface ContainerHandle {
  readonly id: string;
  readonly name: string;
  /** Starts the unit; resolves once it runs (a backend that schedules waits for it, typed errors otherwise). */
  start(): Promise<void>;
  /** How to reach a container port: the published port (bridge), the host port (host network), a proxy. */
  adapter(port: number): Promise<AdapterEndpoint>;
  /** Reads one file out of the container; null when it does not exist. */
  readFile(path: string): Promise<Buffer | null>;
  /** Reads the named files (relative paths) of one directory in a single request; missing ones are absent. */
  readFiles(dir: string, names: readonly string[]): Promise<Map<string, Buffer>>;
  /**
   * Reads a whole directory (files, directories, symlinks, with owners and modes); empty when
   * it does not exist. Absent on a backend that cannot read a unit's files (a Pod): a universe
   * chain's carry then comes through the image's adapter (GET /carry), or fails with carry_error
   * when the image has no such route.
   */
  readTree?(dir: string): Promise<TreeEntry[]>;
  /** running | exited | created | …, plus the exit code once exited. */
  state(): Promise<UnitState>;
  /** Kills the main process (used by tests and by Ctrl-C handling). */
  kill(signal?: string): Promise<void>;
  /** Last lines of the container's stdout/stderr. */
  logs(tail?: number): Promise<string>;
  /** Force-removes the container; never throws if it is already gone. */
  remove(): Promise<void>;
  /**
   * Why a unit created with `capAdd` for the sealed network runs unsealed after all (a cluster
   * that refuses NET_ADMIN, with `[kubernetes] unsealed_fallback`); absent when it is as asked.
   */
  readonly unsealed?: string;
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

export interface PushOptions {
  /** Registry credentials (never logged). */
  auth?: { username: string; password: string };
  /** Plain HTTP / unverified TLS (loopback registries get this without asking, as Docker does). */
  insecure?: boolean;
  onProgress?: (line: string) => void;
}

/** What a backend is, for `doctor`, run_config.json and messages. */
export interface EngineDescription {
  /** podman | docker | kubernetes | … */
  kind: string;
  version: string | null;
  apiVersion: string | null;
  /** Where it is reached (socket path, tcp://host:port, ssh://…, a cluster URL); no credentials. */
  endpoint: string;
  /** True when units run on another machine than the runner. */
  remote: boolean;
}

/**
 * What a backend holds for one run while its units exist, opened before the first unit and
 * closed after the last: `env` is the units' environment with every URL of a service on this
 * machine's loopback rewritten to reach it (relays, tunnels); close() releases those and any
 * object the backend keeps per run (a cluster's run Secret and Pod watch).
 */
export interface RunScope {
  env: Record<string, string>;
  close(): Promise<void>;
}

export interface RunScopeOptions {
  /** The run id every unit of the run carries as its LABELS.runId label. */
  runId: string;
  /** The units' environment before per-unit tokens. */
  env: Record<string, string>;
  network: 'bridge' | 'host';
  /**
   * The run asks for a sealed network: the addresses its units may reach (`host:port`, as the
   * units' GAIA2_SEAL_ALLOW) and the image, for a backend that checks or fences it per run.
   */
  seal?: { allow: string[]; image: string };
  log?: (line: string) => void;
}

/**
 * Where images live and are made: only engines that hold images have one (a Docker Engine API
 * engine, local or remote). A cluster pulls from a registry and has none; callers ask
 * `backend.images` and treat null as "this backend holds no images".
 */
export interface ImageStore {
  exists(ref: string): Promise<boolean>;
  /** Labels of a local image; null when the image does not exist. */
  labels(ref: string): Promise<Record<string, string> | null>;
  /** The image's id (sha256:…) for run records; null when absent. */
  id(ref: string): Promise<string | null>;
  /** Local images carrying a label (any value): their tags and labels. */
  withLabel(label: string): Promise<Array<{ tags: string[]; labels: Record<string, string> }>>;
  build(opts: BuildOptions): Promise<void>;
  /**
   * Pulls an image; false when no registry answers within the timeout, the engine reports an
   * error (as an HTTP error or inside its progress stream), or the image is absent afterwards.
   */
  pull(ref: string, timeoutMs: number, log?: (line: string) => void): Promise<boolean>;
  /** Tags a local image as `ref` (REGISTRY/NAME:TAG) and pushes it to that registry. */
  push(source: string, ref: string, o?: PushOptions): Promise<void>;
  /**
   * Creates an image from a root filesystem tar through the engine (so it works on any engine
   * the runner reaches, remote ones too); `changes` are Dockerfile instructions (CMD, ENV, …).
   */
  importImage(rootfsTar: Readable, ref: string, o?: { changes?: string[] }): Promise<void>;
}

/** A backend that writes what it would create instead of creating it (`--dry-run --manifests`). */
export interface ManifestOutput extends UnitBackend {
  /** Files written, in order. */
  readonly written: readonly string[];
}

/**
 * Where a run's units execute: what the backend can do, its lifecycle of units, and its image
 * store when it has one.
 */
export interface UnitBackend {
  readonly name: string;
  readonly capabilities: EngineCapabilities;
  /** The backend's images; null for one that holds none (a cluster pulls from a registry). */
  readonly images: ImageStore | null;
  describe(): Promise<EngineDescription>;
  /**
   * Checks the run's needs against what this backend can do, before anything runs: the one
   * place host networking and host services are refused (a ConfigError naming the option).
   */
  preflight(needs: RunNeeds): Promise<void>;
  /** Opens the run's scope (after preflight, before its first unit); the caller closes it. */
  openRun(o: RunScopeOptions): Promise<RunScope>;
  /** Throws EngineError('engine_unavailable') quickly when the engine does not answer. */
  ping(): Promise<void>;
  create(spec: ContainerSpec): Promise<ContainerHandle>;
  /** Units (and a run's own objects, where a backend has them) carrying the labels: what `clean` lists. */
  listByLabels(labels: Record<string, string>): Promise<ContainerInfo[]>;
  /** Removes what listByLabels listed; never throws if it is already gone. */
  remove(id: string): Promise<void>;
  /** Releases the connection and any engine service this process started. */
  close(): Promise<void>;
}
