// The world clock and a busy machine, in real containers (docs/daemon.md, "The clock and a busy
// machine"): while three other containers keep every CPU busy (the machine's other work), a
// bring-your-own agent's launcher keeps one busy loop of its own running (a program at work)
// and reads, across a few seconds, the simulated clock (`date`, as any agent program does) and
// the real one (/proc/uptime, which the clock preload leaves alone). With the image's default
// (GAIA2_CLOCK_CPU_WAIT=exclude) the time its work waited for a CPU is kept off the simulated
// clock, so it advances well under the wall time; with `count` (the reference's clock) it
// advances with the wall time. The daemon's log says how much it kept off. (A run that keeps
// more threads busy than it has CPUs gains nothing: test/agent-image/world/cpu-wait.test.ts.)
import Docker from 'dockerode';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UnitBackend } from '../../runner/src/engine/index.js';
import { DEFAULT_IMAGE } from '../../runner/src/image/index.js';
import { DEFAULT_TIMEOUTS, runScenario } from '../../runner/src/run/index.js';
import { connectE2eEngine, eachEngine } from './helpers/engines.js';

const root = join(import.meta.dirname, '..', '..');
const world = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
const suffix = world.split(':').pop() ?? 'latest';
const SCENARIO = join(root, 'examples/scenarios/execution/exec_shopping_bottle_order.json');

/** One busy loop, then the simulated and the real seconds across a 4 s sleep. */
const LAUNCHER = `#!/bin/bash
cat >/dev/null
( while :; do :; done ) &
sleep 0.5
s0=$(date +%s.%N); w0=$(cut -d' ' -f1 /proc/uptime)
sleep 4
s1=$(date +%s.%N); w1=$(cut -d' ' -f1 /proc/uptime)
kill $(jobs -p) 2>/dev/null
wait 2>/dev/null
python3 -c "print('sim=%.3f wall=%.3f' % ($s1 - $s0, $w1 - $w0))" >"$GAIA2_TRACE_DIR/clock.log"
echo "Measured the clock."
`;

describe.each(eachEngine())('the clock and a busy machine on %s (real containers)', (_kind, e) => {
  let engine: UnitBackend;
  const layer = `localhost/clock-busy:${suffix}`;
  const seen: Record<'exclude' | 'count', { sim: number; wall: number; log: string }> = {} as never;

  beforeAll(async () => {
    engine = await connectE2eEngine(e);
    const ctx = mkdtempSync(join(tmpdir(), 'gaia2-e2e-clock-busy-'));
    writeFileSync(join(ctx, 'agent'), LAUNCHER, { mode: 0o755 });
    writeFileSync(
      join(ctx, 'Dockerfile'),
      'ARG WORLD_IMAGE\nFROM ${WORLD_IMAGE}\nCOPY agent /opt/gaia2-agent/bin/\nLABEL gaia2.agent.name=clock-busy gaia2.agent.version=0.1.0\nENV GAIA2_AGENT=external\n',
    );
    await engine.images!.build({ contextDir: ctx, tag: layer, buildArgs: { WORLD_IMAGE: world } });
    for (const mode of ['exclude', 'count'] as const) {
      // the machine's other work: three other containers, each with one busy loop per CPU (loops
      // on the host would sit in another cgroup, whose share the scheduler keeps apart)
      const docker = new Docker({ socketPath: e.host.replace(/^unix:\/\//, '') });
      const hogs = await Promise.all(
        [1, 2, 3].map(async () => {
          const c = await docker.createContainer({ Image: world, Entrypoint: ['bash', '-c', `for _ in $(seq ${availableParallelism()}); do ( while :; do :; done ) & done; wait`], Labels: { 'gaia2.managed': '1' } });
          await c.start();
          return c;
        }),
      );
      const outputDir = mkdtempSync(join(tmpdir(), `gaia2-e2e-clock-busy-${mode}-`));
      const result = await runScenario({
        engine, image: layer, outputDir, agent: 'clock-busy', agentRecord: { name: 'clock-busy', version: '0.1.0' }, network: 'bridge',
        scenarioFile: SCENARIO,
        labels: { 'gaia2.run-id': `e2e-clock-busy-${process.pid}` },
        // exclude is the image's own default: sent only for the baseline
        env: mode === 'count' ? { GAIA2_CLOCK_CPU_WAIT: 'count' } : {},
        timeouts: { ...DEFAULT_TIMEOUTS, healthSeconds: 60, scenarioSeconds: 240 },
      }).finally(() => Promise.all(hogs.map((h) => h.remove({ force: true }))));
      expect(result.agent_response, mode).toBe('Measured the clock.');
      const m = /sim=([\d.]+) wall=([\d.]+)/.exec(readFileSync(join(outputDir, 'agent-trace', 'clock.log'), 'utf8'));
      expect(m, mode).not.toBeNull();
      seen[mode] = { sim: Number(m![1]), wall: Number(m![2]), log: readFileSync(join(outputDir, 'eventd.log'), 'utf8') };
    }
  }, 600_000);
  afterAll(async () => {
    await engine?.close();
  });

  it('exclude (the image default): its work got a fraction of a CPU, and the clock counted about that fraction of the wall time; the daemon says what it kept off', () => {
    const { sim, wall, log } = seen.exclude;
    expect(wall).toBeGreaterThanOrEqual(3.9);
    // Its loop shares the CPUs with three other busy containers: it runs about a quarter of the time.
    expect(sim / wall).toBeLessThan(0.6);
    expect(sim).toBeGreaterThan(0);
    const kept = Number(/clock: ([\d.]+) s the run waited for a CPU kept off the simulated clock/.exec(log)?.[1]);
    expect(kept).toBeGreaterThan(0.4 * wall);
  });

  it('count (the reference clock): the same load, and the clock counts all the wall time', () => {
    const { sim, wall, log } = seen.count;
    expect(sim / wall).toBeGreaterThan(0.95);
    expect(sim / wall).toBeLessThan(1.05);
    expect(log).not.toMatch(/kept off the simulated clock/);
  });
});
