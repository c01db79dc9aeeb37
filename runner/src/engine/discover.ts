// Finds a Docker Engine API endpoint: DOCKER_HOST, then the Docker socket, then the Podman
// sockets; when only the podman CLI exists, starts `podman system service` as a child that
// lives as long as this process needs it.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DockerOptions } from 'dockerode';

export interface Endpoint {
  socketPath?: string;
  /** Where it came from, for messages. */
  source: string;
  /** Set when we started a podman service for this process. */
  child?: ChildProcess;
  /** Complete client settings (a remote engine's TLS agent or SSH transport); wins over the fields above. */
  modem?: DockerOptions;
  /** Engine-host address container ports are published on (default 127.0.0.1). */
  publishIp?: string;
}

/** A local DOCKER_HOST (unix://…); every other form is a remote engine (remote/connect.ts). */
export function parseDockerHost(value: string): Endpoint {
  return { socketPath: value.replace(/^unix:\/\//, ''), source: `DOCKER_HOST=${value}` };
}

export function candidateSockets(env: NodeJS.ProcessEnv = process.env): string[] {
  const out = ['/var/run/docker.sock', '/run/podman/podman.sock'];
  if (env.XDG_RUNTIME_DIR) out.push(join(env.XDG_RUNTIME_DIR, 'podman', 'podman.sock'));
  if (typeof process.getuid === 'function') out.push(`/run/user/${process.getuid()}/podman/podman.sock`);
  return [...new Set(out)];
}

export function existingSockets(env: NodeJS.ProcessEnv = process.env): string[] {
  return candidateSockets(env).filter((p) => existsSync(p));
}

export function hasCommand(cmd: string, env: NodeJS.ProcessEnv = process.env): boolean {
  return (env.PATH ?? '').split(':').some((d) => d && existsSync(join(d, cmd)));
}

/** Starts `podman system service` on a private socket; the caller stops `child` when done. */
export function startPodmanService(): Endpoint {
  const dir = mkdtempSync(join(tmpdir(), 'gaia2-podman-'));
  const socketPath = join(dir, 'podman.sock');
  const child = spawn('podman', ['system', 'service', '--time=0', `unix://${socketPath}`], {
    stdio: 'ignore',
    detached: false,
  });
  child.unref();
  const stop = () => {
    if (child.exitCode === null) child.kill('SIGTERM');
  };
  process.once('exit', stop);
  // The source is the engine's address (describe().endpoint): a caller that hands the engine
  // on (DOCKER_HOST for a child process, `doctor`) needs one it can connect to.
  return { socketPath, source: `unix://${socketPath}`, child };
}

export const NO_ENGINE_HINT =
  'No container engine found. Start Docker, or install podman and run `npm run setup-engine` ' +
  '(on Debian as root it installs and starts everything), or set DOCKER_HOST.';
