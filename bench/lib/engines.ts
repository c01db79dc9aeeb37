// The engines a benchmark compares in one run: the podman service (engine discovery) and a
// private Docker Engine (scripts/setup-docker.sh; started here unless BENCH_DOCKER_HOST names
// one, then stopped again), each with the agent image built if missing.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { connectEngine, type UnitBackend } from '../../runner/src/engine/index.js';
import { ensureImage } from '../../runner/src/image/index.js';

const root = join(import.meta.dirname, '..', '..');

export interface BenchEngine {
  kind: string;
  host: string;
  engine: UnitBackend;
  /** argv of the engine's own CLI up to `run` (the bare lifecycle baseline). */
  cli: string[];
}

export async function benchEngines(image: string): Promise<{ engines: BenchEngine[]; close(): Promise<void> }> {
  const engines: BenchEngine[] = [];
  const podman = await connectEngine();
  const pd = await podman.describe();
  engines.push({ kind: pd.kind, host: pd.endpoint, engine: podman, cli: [pd.kind === 'docker' ? 'docker' : 'podman', ...(pd.kind === 'docker' ? ['-H', pd.endpoint] : [])] });
  let started = false;
  let host = process.env.BENCH_DOCKER_HOST;
  if (!host) {
    const out = execFileSync('bash', [join(root, 'scripts/setup-docker.sh'), 'start'], { encoding: 'utf8' });
    started = true;
    host = /^DOCKER_HOST=(\S+)$/m.exec(out)?.[1];
    if (!host) throw new Error(`setup-docker.sh printed no DOCKER_HOST:\n${out}`);
  }
  const docker = await connectEngine({ host, startPodman: false });
  const t0 = performance.now();
  const built = await ensureImage(docker.images, { projectRoot: root, tag: image });
  if (built.built) console.log(`(built ${image} on Docker in ${((performance.now() - t0) / 1000).toFixed(0)} s)`);
  engines.push({ kind: 'docker', host, engine: docker, cli: ['docker', '-H', host] });
  return {
    engines,
    async close() {
      for (const e of engines) await e.engine.close();
      if (started) execFileSync('bash', [join(root, 'scripts/setup-docker.sh'), 'stop'], { stdio: 'ignore' });
    },
  };
}
