// Every bench in bench/ runs once at its tiny size (bench/smoke.json) through `npm run bench --
// --smoke`, so a change that breaks a benchmark fails CI instead of the next person who measures.
// The figures are not looked at: only that each bench runs to its end on the engines the suite
// already has (podman, and the suite's private Docker Engine for the benches that compare both).
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_IMAGE } from '../../runner/src/image/index.js';
import { e2eEngines } from './helpers/engines.js';

const root = join(import.meta.dirname, '../..');
const benches = readdirSync(join(root, 'bench')).filter((f) => /\.(mjs|ts)$/.test(f) && f !== 'run.mjs' && !f.startsWith('_'));
const sizes = JSON.parse(readFileSync(join(root, 'bench/smoke.json'), 'utf8')) as Record<string, unknown>;

describe('bench smoke (npm run bench -- --smoke)', () => {
  it('bench/smoke.json gives every bench a size, and names no bench that is gone', () => {
    expect(benches.length).toBeGreaterThan(5);
    expect(benches.filter((b) => !(b in sizes))).toEqual([]);
    expect(Object.keys(sizes).filter((k) => !k.startsWith('_') && !benches.includes(k))).toEqual([]);
  });

  it.each(benches)('%s runs to its end', (bench) => {
    const docker = e2eEngines().find((e) => e.kind === 'docker');
    const env = {
      ...process.env,
      GAIA2_BENCH_IMAGE: process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE,
      // The suite's own Docker Engine, so a bench that compares engines neither starts nor
      // stops one of its own under the other suites' feet.
      ...(docker ? { BENCH_DOCKER_HOST: docker.host } : {}),
    };
    const r = spawnSync('node', [join(root, 'bench/run.mjs'), '--smoke', bench], { cwd: root, env, encoding: 'utf8', timeout: 600_000 });
    const tail = `${r.stdout}\n${r.stderr}`.split('\n').slice(-40).join('\n');
    expect(r.status, `${bench} exited ${r.status ?? r.signal}:\n${tail}`).toBe(0);
    expect(r.stdout).toContain(`## ${bench} (smoke size)`);
  }, 900_000);
});
