// App CLI calls as the agent makes them: the thin client (bash + curl over the daemon's CLI
// socket) started from a shell, its answer written to a file, timed by that shell around each
// call (no engine exec or Node spawn in the time). The same loop runs on the host against an
// in-process daemon's socket (hostCli) and inside the real container (container-world.ts).
// Callers alternate short rounds between the worlds they compare, so that the load of a
// shared machine falls on each alike.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { serveCliSocket } from '../../agent-image/src/world/sockets.js';
import type { WorldDaemon } from '../../agent-image/src/world/daemon.js';

const root = join(import.meta.dirname, '..', '..');
const THIN_CLIENT = join(root, 'agent-image/rootfs/usr/local/lib/gaia2/gaia2-cli');
const run = promisify(execFile);

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * A bash loop making `n` calls of argv with stdout to `out`, printing each call's wall time
 * in µs, read with /bin/date (in the container `date` is the agent's sim-clock shim). A failed
 * call stops the loop with its exit code.
 */
export function timedLoop(argv: readonly string[], n: number, out: string): string {
  const cmd = argv.map(quote).join(' ');
  return `for i in $(seq ${n}); do s=$(/bin/date +%s%N); ${cmd} > ${quote(out)} || exit $?; e=$(/bin/date +%s%N); echo $(( (e-s)/1000 )); done`;
}

/** The loop's output → ms per call. */
export const loopTimes = (stdout: string): number[] =>
  stdout.split('\n').filter((l) => /^\d+$/.test(l.trim())).map((l) => Number(l) / 1000);

export interface TimedCli {
  /** `n` calls of argv, ms each. */
  timed(argv: readonly string[], n: number): Promise<number[]>;
  close(): Promise<void>;
}

/** The thin client on this machine against `world`'s CLI socket, serving the CLI `name`. */
export async function hostCli(world: WorldDaemon, name: string): Promise<TimedCli> {
  const dir = mkdtempSync(join(tmpdir(), 'gaia2-calls-'));
  const sock = join(dir, 'cli.sock');
  const server = await serveCliSocket(world, sock, new Set([name]));
  symlinkSync(THIN_CLIENT, join(dir, name));
  return {
    // Asynchronous: the daemon answering the calls runs in this process.
    timed: async (argv, n) => {
      const { stdout } = await run('bash', ['-c', timedLoop(argv, n, join(dir, 'answer'))], {
        env: { PATH: `${dir}:/usr/bin:/bin`, GAIA2_CLI_SOCKET: sock },
      });
      return loopTimes(stdout);
    },
    close: async () => {
      await new Promise((r) => server.close(r));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
