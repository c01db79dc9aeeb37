// The adapter HTTP contract (docs/contract.md, "Adapter HTTP"). Routes the reference runner and
// daemon use are kept as they are; mutating routes require the bearer token when the
// container was given GAIA2_ADAPTER_TOKEN.

export const ROUTES = {
  health: '/health',
  status: '/status',
  notify: '/notify',
  sendUserMessage: '/send_user_message',
  sendNotifications: '/send_notifications',
  messages: '/messages',
  events: '/events',
  // --- additions of this project, for the runner that owns the container ---
  /** GET: every artifact file in one response (ArtifactsResponse). */
  artifacts: '/artifacts',
  /** POST: the runner is done; the container exits so it can be removed without a kill. */
  shutdown: '/shutdown',
  /**
   * POST: files written into the container in the given order (UploadRequest); how a runner
   * that has no archive API (a cluster backend) delivers the scenario and its ready marker.
   * PUT (the files-stream feature): one file, `?path=…&mode=…`, the body its raw bytes.
   */
  files: '/files',
  /**
   * GET: what a universe chain carries out of a finished unit (contract/carry.ts's filter) as
   * one tar stream, entries `state/<path>` and `home/<path>` (CARRY_TAR_ROOTS): how a runner
   * without an archive API (a cluster backend) reads it.
   */
  carry: '/carry',
} as const;

/**
 * The adapter token travels as `Authorization: Bearer <token>`, or in this header: a proxy in
 * between (a Kubernetes API server's pod proxy) authenticates the runner with Authorization and
 * strips it before forwarding, so proxied requests carry the token here instead.
 */
export const ADAPTER_TOKEN_HEADER = 'x-gaia2-adapter-token';

/** Routes that change state and therefore need the token. */
export const MUTATING_ROUTES: ReadonlySet<string> = new Set([
  ROUTES.notify,
  ROUTES.sendUserMessage,
  ROUTES.sendNotifications,
]);

/**
 * Routes only the runner may use: they always need the token, and are disabled when the
 * container has none (the artifacts hold the judge's records, which the agent must not read).
 */
export const RUNNER_ROUTES: ReadonlySet<string> = new Set([ROUTES.artifacts, ROUTES.shutdown, ROUTES.files, ROUTES.carry]);

/** POST /files: written one after the other, so a reader that sees the last one knows the rest are complete. */
export interface UploadRequest {
  files: Array<{ path: string; /** base64 */ content: string; mode?: number }>;
}

/** Where POST /files may write: the daemon's own private tree (it runs as the gaia2 user). */
export const UPLOAD_ROOT = '/var/gaia2/';

/** Scenarios run to megabytes; base64 adds a third. */
export const MAX_UPLOAD_BYTES = 256 * 1024 * 1024;

/**
 * PUT /files: the query parameters (the body is the file's bytes, written to a temporary name
 * and renamed into place once complete). `mode` is octal, like `0644`.
 */
export const FILE_PUT_QUERY = { path: 'path', mode: 'mode' } as const;

/** GET /artifacts with this query answers a tar stream (the artifacts-tar feature). */
export const ARTIFACTS_TAR_QUERY = 'format=tar';

/**
 * Headers of the tar answer: the artifact names that do not exist, and those that exist but
 * the daemon cannot read (comma-separated; names never hold a comma).
 */
export const ARTIFACTS_TAR_HEADERS = { missing: 'x-gaia2-missing', unreadable: 'x-gaia2-unreadable' } as const;

/** GET /carry: the tar's top folders, the state dir's and the agent home's carried entries. */
export const CARRY_TAR_ROOTS = { state: 'state', home: 'home' } as const;

/** GET /artifacts: host file name (ARTIFACT_FILES) → content in base64. */
export interface ArtifactsResponse {
  files: Record<string, string>;
  /** Artifact files that do not exist (yet). */
  missing: string[];
  /** Files that exist but the daemon cannot read; the runner copies them by archive. */
  unreadable: string[];
}

export interface HealthResponse {
  ok: boolean;
  connected: boolean;
  /**
   * Ours: an agent runtime is attached and its program is starting (the simulated clock is held
   * meanwhile). A runner waits for it longer than for the world's boot.
   */
  agent_starting?: boolean;
  [k: string]: unknown;
}

export interface NotifyRequest {
  message: string;
}

export interface NotifyResponse {
  ok: boolean;
  runId?: string;
  error?: string;
}

/** Entry of the reply buffer served by GET /messages and GET /events. */
export interface BufferedMessage {
  seq: number;
  timestamp: string;
  run_id?: string;
  state?: 'final' | 'error';
  message: string;
  [k: string]: unknown;
}
