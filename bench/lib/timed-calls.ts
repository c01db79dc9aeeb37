// App CLI calls as the agent makes them: the thin client (bash + curl over the daemon's CLI
// socket) started from a shell, its answer written to a file, timed by that shell around each
// call (no engine exec or Node spawn in the time). The same loop runs on the host against an
// in-process daemon's socket (hostCalls) and inside the real container (container-world.ts).
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
 * A bash loop making `n` calls of argv (after one untimed warm-up) with stdout to `out`; it
 * prints each call's wall time in µs, read with /bin/date (in the container `date` is the
 * agent's sim-clock shim). A failed call stops the loop with its exit code.
 */
export function timedLoop(argv: readonly string[], n: number, out: string): string {
  const cmd = argv.map(quote).join(' ');
  return `${cmd} > ${quote(out)} || exit $?; for i in $(seq ${n}); do s=$(/bin/date +%s%N); ${cmd} > ${quote(out)} || exit $?; e=$(/bin/date +%s%N); echo $(( (e-s)/1000 )); done`;
}

/** The loop's output → ms per call. */
export const loopTimes = (stdout: string): number[] =>
  stdout.split('\n').filter((l) => /^\d+$/.test(l.trim())).map((l) => Number(l) / 1000);

/** `n` calls through the thin client on this machine, against `world`'s CLI socket. */
export async function hostCalls(world: WorldDaemon, argv: readonly string[], n: number): Promise<number[]> {
  const dir = mkdtempSync(join(tmpdir(), 'gaia2-calls-'));
  const sock = join(dir, 'cli.sock');
  const server = await serveCliSocket(world, sock, new Set([argv[0]!]));
  try {
    symlinkSync(THIN_CLIENT, join(dir, argv[0]!));
    // Asynchronous: the daemon answering the calls runs in this process.
    const { stdout } = await run('bash', ['-c', timedLoop(argv, n, join(dir, 'answer'))], {
      env: { PATH: `${dir}:/usr/bin:/bin`, GAIA2_CLI_SOCKET: sock },
      maxBuffer: 1 << 20,
    });
    return loopTimes(stdout);
  } finally {
    await new Promise((r) => server.close(r));
    rmSync(dir, { recursive: true, force: true });
  }
}
