// The README's promise on a fresh machine: `npm install && npm run demo` passes every sample
// scenario with no base image and no registry. The global setup runs `npm run demo`'s script
// against the Docker Engine it started with an EMPTY data root, on this machine without a
// registry, so every suite run proves it from nothing; here, what the demo did.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OFFLINE_BASE } from '../../runner/src/image/index.js';
import { e2eEngines } from './helpers/engines.js';

const samples = join(import.meta.dirname, '..', '..', 'examples', 'scenarios');
const sampleCount = readdirSync(samples, { recursive: true }).filter((f) => String(f).endsWith('.json')).length;

describe('npm run demo on an engine that holds nothing (no base image, no registry)', () => {
  const docker = e2eEngines().find((e) => e.kind === 'docker');

  it('ran on the empty Docker Engine', () => {
    expect(docker?.imagesAtStart).toBe(0);
    expect(docker?.demo, 'the global setup runs the demo on the pristine engine').toBeDefined();
  });

  it('built the image on the offline base and exited 0', () => {
    const d = docker!.demo!;
    expect(d.stdout).toContain(`on ${OFFLINE_BASE}`);
    expect(d.stdout).toMatch(/built localhost\/gaia2-agent:latest in [\d.]+s/);
    expect(d.code).toBe(0);
  });

  it(`passed every sample scenario (${sampleCount})`, () => {
    const d = docker!.demo!;
    expect(sampleCount).toBeGreaterThanOrEqual(12);
    expect(d.statuses).toHaveLength(sampleCount);
    expect(d.statuses.filter((s) => s === 'pass')).toHaveLength(sampleCount);
  });
});
