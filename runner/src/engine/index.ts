// Container engines. connectEngine() finds a Docker Engine API endpoint (docs/runner.md, "Engine") and
// checks that it answers; the Kubernetes backend (engine/kubernetes/) is a second UnitBackend.
// Which one a run gets is the registry's answer (engine/registry.ts, engine/connect.ts).
import { DockerApiEngine } from './docker-api.js';
import { existingSockets, hasCommand, NO_ENGINE_HINT, parseDockerHost, startPodmanService } from './discover.js';
import { EngineError } from './errors.js';
import { isLocalDockerHost } from './remote/docker-host.js';
import { connectRemoteEngine } from './remote/connect.js';
import type { UnitBackend } from './types.js';

export * from './types.js';
export { EngineError, isEngineError } from './errors.js';
export { LABELS } from './labels.js';
export { contentBytes, contentStream, packFiles, tarFiles, treesOf } from './archive.js';

export interface ConnectOptions {
  /** Explicit endpoint (unix:///path, tcp://host:port, ssh://user@host); defaults to DOCKER_HOST / discovery. */
  host?: string;
  env?: NodeJS.ProcessEnv;
  /** Start `podman system service` when only the CLI is present (default true). */
  startPodman?: boolean;
}

export async function connectEngine(opts: ConnectOptions = {}): Promise<DockerApiEngine> {
  const env = opts.env ?? process.env;
  const explicit = opts.host ?? env.DOCKER_HOST;
  // tcp://, ssh:// (and anything malformed, which gets a clear error there).
  if (explicit && !isLocalDockerHost(explicit)) return connectRemoteEngine(explicit, env);
  if (explicit) {
    const engine = new DockerApiEngine(parseDockerHost(explicit));
    await engine.ping();
    return engine;
  }
  let lastError: unknown;
  for (const socketPath of existingSockets(env)) {
    const engine = new DockerApiEngine({ socketPath, source: `unix://${socketPath}` });
    try {
      await engine.ping();
      return engine;
    } catch (e) {
      lastError = e;
    }
  }
  if (opts.startPodman !== false && hasCommand('podman', env)) {
    const endpoint = startPodmanService();
    const engine = new DockerApiEngine(endpoint);
    const deadline = Date.now() + 15_000;
    for (;;) {
      try {
        await engine.ping();
        return engine;
      } catch (e) {
        if (Date.now() > deadline) {
          await engine.close();
          throw e;
        }
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }
  if (lastError instanceof EngineError) throw lastError;
  throw new EngineError('engine_unavailable', NO_ENGINE_HINT);
}
