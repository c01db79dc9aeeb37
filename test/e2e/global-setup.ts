// End-to-end suites need container engines and the agent image. Set both up when missing (the
// same steps as `npm run demo`), so `npm test` works on a fresh clone: the podman service
// (scripts/setup-engine.sh) and a private Docker Engine started here with an EMPTY data root
// (scripts/setup-docker.sh), stopped at the end. The image is built on each; on Docker that
// is the fresh-machine path every run: no base image, no registry, offline base imported.
// GAIA2_TEST_ENGINES=podman limits a local run to one engine (CI runs both).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { Agent } from 'node:http';
import { join } from 'node:path';
import Docker from 'dockerode';
import type { TestProject } from 'vitest/node';
import { connectEngine, type UnitBackend } from '../../runner/src/engine/index.js';
import { ensureImage, DEFAULT_IMAGE } from '../../runner/src/image/index.js';
import type { DemoOutcome, E2eEngine } from './helpers/engines.js';

const root = join(import.meta.dirname, '..', '..');
const setupDocker = join(root, 'scripts/setup-docker.sh');

/**
 * Where this checkout's private dockerd lives, unless GAIA2_DOCKER_* say: per checkout, so two
 * clones on one machine never stop each other's engine or share a bridge.
 */
function dockerPlace(): NodeJS.ProcessEnv {
  const h = createHash('sha256').update(root).digest();
  const id = h.toString('hex').slice(0, 8);
  return {
    ...process.env,
    GAIA2_DOCKER_RUN: process.env.GAIA2_DOCKER_RUN ?? `/run/gaia2-docker-${id}`,
    GAIA2_DOCKER_DATA: process.env.GAIA2_DOCKER_DATA ?? `/var/lib/gaia2-docker-${id}`,
    GAIA2_DOCKER_BRIDGE: process.env.GAIA2_DOCKER_BRIDGE ?? `g2d-${id}`,
    GAIA2_DOCKER_CIDR: process.env.GAIA2_DOCKER_CIDR ?? `10.${200 + (h[4]! % 50)}.${h[5]!}.1/24`,
  };
}

/** A private dockerd already running from nothing (started by CI just before): reused as it is. */
async function pristineDocker(env: NodeJS.ProcessEnv): Promise<string | null> {
  const socketPath = `${env.GAIA2_DOCKER_RUN}/docker.sock`;
  // Its own agent, closed after: a pooled connection to a dockerd that `start` then replaces
  // would break the next request on the same socket path (EPIPE).
  const agent = new Agent({ keepAlive: false });
  try {
    const docker = new Docker({ socketPath, agent } as Docker.DockerOptions);
    const [images, containers] = await Promise.all([docker.listImages(), docker.listContainers({ all: true })]);
    return images.length === 0 && containers.length === 0 ? `unix://${socketPath}` : null;
  } catch {
    return null;
  } finally {
    agent.destroy();
  }
}

/**
 * The README's quick start, literally: `npm run demo` (scripts/demo.mjs) against an engine that
 * holds nothing. It sets the engine up, builds the image from nothing and runs the oracle on
 * the sample scenarios; what it printed and what results.jsonl says go to the tests.
 */
function demoFromNothing(host: string): DemoOutcome {
  const out = join(root, 'runs', 'demo', 'results.jsonl'); // examples/demo.toml's output_dir
  const r = spawnSync(process.execPath, [join(root, 'scripts/demo.mjs')], {
    cwd: root,
    env: { ...process.env, DOCKER_HOST: host },
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  process.stderr.write(`[demo on the empty engine] exit ${r.status}\n${(r.stdout ?? '').split('\n').slice(-25).join('\n')}\n${r.stderr ?? ''}\n`);
  const statuses = existsSync(out)
    ? readFileSync(out, 'utf8').split('\n').filter((l) => l.trim()).map((l) => String((JSON.parse(l) as { status?: unknown }).status))
    : [];
  return { code: r.status, stdout: r.stdout ?? '', statuses };
}

async function prepare(engine: UnitBackend, image: string, o: { demo?: boolean } = {}): Promise<E2eEngine> {
  const d = await engine.describe();
  const socketPath = d.endpoint.replace(/^unix:\/\//, '');
  const imagesAtStart = d.endpoint.startsWith('unix://') ? (await new Docker({ socketPath }).listImages()).length : -1;
  const buildLog: string[] = [];
  const log = (l: string) => {
    buildLog.push(l);
    process.stderr.write(`[build-image ${d.kind}] ${l}\n`);
  };
  // On an engine that holds nothing, the demo does the first build (it builds DEFAULT_IMAGE):
  // its build-image lines are the build log the fresh-machine tests read.
  const demo = o.demo && imagesAtStart === 0 ? demoFromNothing(d.endpoint) : undefined;
  if (demo) buildLog.push(...demo.stdout.split('\n').map((l) => l.trim()).filter(Boolean));
  await ensureImage(engine.images!, { projectRoot: root, tag: image, log });
  return { kind: d.kind, host: d.endpoint, buildLog, imagesAtStart, ...(demo ? { demo } : {}) };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
  const wanted = new Set((process.env.GAIA2_TEST_ENGINES ?? 'podman,docker').split(',').map((s) => s.trim()));
  const engines: E2eEngine[] = [];
  const env = dockerPlace();
  // Stopped here only when started here (CI starts it itself and stops it on exit).
  let dockerStarted = false;
  const stopDocker = () => {
    if (dockerStarted) execFileSync('bash', [setupDocker, 'stop'], { env, stdio: 'inherit' });
    dockerStarted = false;
  };
  let podman: UnitBackend | null = null;
  const teardown = async (): Promise<void> => {
    stopDocker();
    await podman?.close();
    podman = null;
  };
  try {
    if (wanted.has('podman')) {
      let engine: UnitBackend;
      try {
        engine = await connectEngine();
      } catch {
        execFileSync('bash', [join(root, 'scripts/setup-engine.sh')], { stdio: 'inherit' });
        engine = await connectEngine();
      }
      // Open until the teardown: when no engine answered, discovery started a podman service of
      // its own, which closing the connection stops (the suites would find its socket gone).
      podman = engine;
      engines.push(await prepare(engine, image));
    }
    if (wanted.has('docker')) {
      let host = await pristineDocker(env);
      if (!host) {
        const out = execFileSync('bash', [setupDocker, 'start'], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
        dockerStarted = true;
        process.stderr.write(out);
        host = /^DOCKER_HOST=(\S+)$/m.exec(out)?.[1] ?? null;
        if (!host) throw new Error(`scripts/setup-docker.sh start printed no DOCKER_HOST line:\n${out}`);
      }
      const engine = await connectEngine({ host, startPodman: false });
      try {
        engines.push(await prepare(engine, image, { demo: true }));
      } finally {
        await engine.close();
      }
    }
  } catch (e) {
    await teardown();
    throw e;
  }
  if (engines.length === 0) {
    await teardown();
    throw new Error(`GAIA2_TEST_ENGINES=${process.env.GAIA2_TEST_ENGINES} names no engine (podman, docker)`);
  }
  project.provide('gaia2Engines', engines);
  return teardown;
}
