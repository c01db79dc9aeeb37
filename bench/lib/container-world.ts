// The world daemon in a real container, for the scale bench: boot as the runner sees it (from
// `podman start` until /health reports the world composed and its agent attached), memory as
// the kernel counts it (RSS of the daemon process and of every process in the container, read
// with `podman top`, and the daemon's peak, VmHWM), and app commands timed as the agent makes them (timed-calls.ts), from a
// shell in the container.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loopTimes, timedLoop, type TimedCli } from './timed-calls.js';

export interface ContainerWorld {
  bootMs: number;
  /** RSS of the world daemon (gaia2d), MB. */
  daemonRssMb: number;
  /** The daemon's peak RSS since it started (VmHWM): the parse at boot, the persist at the end. */
  daemonPeakMb: number;
  /** RSS of every process in the container, MB. */
  containerRssMb: number;
}

export interface RunningWorld extends TimedCli {
  bootMs: number;
  /** argv ([cli, ...args]) run as the agent. */
  exec(argv: readonly string[]): string;
  rss(): Omit<ContainerWorld, 'bootMs'>;
}

const podman = (...args: string[]): string => execFileSync('podman', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A container of `image` running `scenario`'s world, up and serving its CLI socket; close() removes it. */
export async function startWorld(image: string, scenario: string): Promise<RunningWorld> {
  const dir = mkdtempSync(join(tmpdir(), 'gaia2-scale-ctr-'));
  const file = join(dir, 'scenario.json');
  writeFileSync(file, scenario);
  // A scripted agent with an empty script: the run ends at once and the world stays up, its
  // states in memory, serving the CLI socket.
  const cid = podman('create', '--label', 'gaia2.bench=scale', '-p', '127.0.0.1::8090', '-e', 'GAIA2_AGENT=scripted', '-e', 'GAIA2_SCRIPT=[]', image);
  const close = async (): Promise<void> => {
    podman('rm', '-f', cid);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    podman('cp', file, `${cid}:/var/gaia2/custom_scenario.json`);
    const t0 = performance.now();
    podman('start', cid);
    const url = `http://${podman('port', cid, '8090').split('\n')[0]}/health`;
    let bootMs = 0;
    // A deadline, not a count of tries: on a loaded machine a start takes many seconds.
    for (const deadline = t0 + 300_000; !bootMs && performance.now() < deadline; ) {
      try {
        const h = (await (await fetch(url)).json()) as { agent?: unknown };
        if (typeof h.agent === 'string') bootMs = performance.now() - t0;
      } catch {
        // the adapter is not listening yet
      }
      if (!bootMs) await sleep(10);
    }
    if (!bootMs) throw new Error(`container ${cid}: the world never came up (${podman('logs', cid).slice(-2000)})`);
    return {
      bootMs,
      close,
      exec: (argv) => podman('exec', '-u', 'agent', cid, `/home/agent/bin/${argv[0]}`, ...argv.slice(1)),
      timed: async (argv, n) =>
        loopTimes(podman('exec', '-u', 'agent', '-e', 'PATH=/home/agent/bin:/usr/local/bin:/usr/bin:/bin', cid, 'bash', '-c', timedLoop(argv, n, '/tmp/answer'))),
      rss: () => {
        let daemon = 0;
        let total = 0;
        let pid = '';
        for (const line of podman('top', cid, 'rss', 'pid', 'args').split('\n').slice(1)) {
          const m = /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line);
          if (!m) continue;
          const kb = Number(m[1]);
          total += kb;
          if (/gaia2d/.test(m[3]!)) [daemon, pid] = [daemon + kb, m[2]!];
        }
        const peak = /^VmHWM:\s+(\d+) kB/m.exec(pid ? podman('exec', cid, 'cat', `/proc/${pid}/status`) : '');
        if (!peak) throw new Error(`container ${cid}: no VmHWM for the daemon (pid ${pid || 'not found'})`);
        const mb = (kb: number) => (kb * 1024) / 1e6;
        return { daemonRssMb: mb(daemon), daemonPeakMb: mb(Number(peak[1])), containerRssMb: mb(total) };
      },
    };
  } catch (e) {
    await close();
    throw e;
  }
}

/** Boot, then `calls` (argv lists run as the agent), then the memory counted. */
export async function containerWorld(image: string, scenario: string, calls: ReadonlyArray<readonly string[]>): Promise<ContainerWorld> {
  const w = await startWorld(image, scenario);
  try {
    for (const argv of calls) w.exec(argv);
    return { bootMs: w.bootMs, ...w.rss() };
  } finally {
    await w.close();
  }
}
