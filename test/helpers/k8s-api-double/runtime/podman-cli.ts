// A thin promise wrapper over the podman CLI. Secret material only ever travels on stdin.
import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';

export interface CliResult { code: number; stdout: string; stderr: string }

export function podman(args: string[], o: { stdin?: string; timeoutMs?: number } = {}): Promise<CliResult> {
  // podman only reads `-` from a real pipe (it rejects the socket Node gives a child as
  // stdin), so input goes through `cat |`: still never on a command line or in a file.
  const [file, argv] = o.stdin === undefined ? ['podman', args] : ['sh', ['-c', 'cat | exec podman "$@"', 'sh', ...args]];
  return new Promise((resolve) => {
    // The container monitor (conmon) that `pod start` leaves behind marks an OOM kill with a
    // file named `oom` in its working directory: podman runs from the temp dir, not the checkout.
    const child = execFile(file, argv, { cwd: tmpdir(), timeout: o.timeoutMs ?? 120_000, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 125) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
    if (o.stdin !== undefined) child.stdin?.end(o.stdin);
    else child.stdin?.end();
  });
}

/** Like `podman`, but rejects with the command's stderr on a non-zero exit. */
export async function podmanOk(args: string[], o: { stdin?: string; timeoutMs?: number } = {}): Promise<string> {
  const r = await podman(args, o);
  if (r.code !== 0) throw new Error(`podman ${args[0]} ${args[1] ?? ''} failed (${r.code}): ${r.stderr.trim().split('\n').slice(-3).join(' | ')}`);
  return r.stdout;
}
