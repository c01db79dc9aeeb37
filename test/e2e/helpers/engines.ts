// The engines the e2e core runs on, in the same `npm test`: the podman service (or whatever
// engine discovery finds) and a private Docker Engine that the global setup starts with an
// empty data root (scripts/setup-docker.sh), so its image build proves the fresh-machine path.
import Docker from 'dockerode';
import { inject } from 'vitest';
import { connectEngine, type UnitBackend } from '../../../runner/src/engine/index.js';

export interface E2eEngine {
  /** podman | docker, as the engine describes itself. */
  kind: string;
  /** The DOCKER_HOST value that reaches it. */
  host: string;
  /** What the global setup's image build logged (the docker one starts from nothing). */
  buildLog: string[];
  /** Images the engine held before the global setup built anything. */
  imagesAtStart: number;
  /** `npm run demo` run against this engine while it held nothing (the Docker engine). */
  demo?: DemoOutcome;
}

export interface DemoOutcome {
  /** The demo's exit code. */
  code: number | null;
  stdout: string;
  /** `status` of every line of the demo's results.jsonl. */
  statuses: string[];
}

declare module 'vitest' {
  export interface ProvidedContext {
    gaia2Engines: E2eEngine[];
  }
}

export function e2eEngines(): E2eEngine[] {
  return inject('gaia2Engines');
}

/** For describe.each: [kind, engine] pairs. */
export function eachEngine(): Array<[string, E2eEngine]> {
  return e2eEngines().map((e) => [e.kind, e]);
}

export function connectE2eEngine(e: E2eEngine): Promise<UnitBackend> {
  return connectEngine({ host: e.host, startPodman: false });
}

/** Environment for a CLI child process that must use this engine. */
export function engineEnv(e: E2eEngine): NodeJS.ProcessEnv {
  return { ...process.env, DOCKER_HOST: e.host };
}

/** Sends a signal to a container straight through the engine API (no CLI of either engine needed). */
export async function killContainer(e: E2eEngine, id: string, signal = 'SIGKILL'): Promise<void> {
  const docker = new Docker({ socketPath: e.host.replace(/^unix:\/\//, '') });
  await docker.getContainer(id).kill({ signal });
}
