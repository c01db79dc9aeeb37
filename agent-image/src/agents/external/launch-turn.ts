// Runs the agent layer's launcher once for one turn: the message on stdin, the contract's
// variables, its own process group; stdout is the reply, stderr is kept as the turn's log.
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';

export interface TurnLaunch {
  launcher: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  message: string;
  /** Where the launcher's stderr goes. */
  stderrLog: string;
  /**
   * Called once when the launcher writes a line on fd 3 ($GAIA2_READY_FD): its program is up
   * (the runtime held the clock until then). Absent: no fd 3.
   */
  onReady?: () => void;
}

export interface TurnOutcome {
  exitCode: number;
  /** The reply: stdout with trailing white space trimmed. */
  reply: string;
  /** The last non-empty stderr line (for the error reply of a failed turn). */
  lastStderrLine: string;
}

export interface RunningTurn {
  done: Promise<TurnOutcome>;
  /** SIGTERM to the process group, SIGKILL after `graceMs`. */
  stop(graceMs?: number): void;
}

export function launchTurn(t: TurnLaunch): RunningTurn {
  const env = t.onReady ? { ...t.env, GAIA2_READY_FD: '3' } : t.env;
  const stdio: Array<'pipe'> = t.onReady ? ['pipe', 'pipe', 'pipe', 'pipe'] : ['pipe', 'pipe', 'pipe'];
  const child = spawn(t.launcher, [], { cwd: t.cwd, env, detached: true, stdio });
  if (t.onReady) {
    const fd3 = child.stdio[3] as NodeJS.ReadableStream;
    let said = false;
    fd3.on('data', (d: Buffer) => {
      if (!said && d.includes(10)) {
        said = true;
        t.onReady!();
      }
    });
    fd3.on('error', () => undefined);
  }
  const log = createWriteStream(t.stderrLog, { flags: 'a' });
  log.on('error', () => undefined); // an unwritable log must not end the runtime
  const out: Buffer[] = [];
  let errTail = '';
  child.stdout.on('data', (d: Buffer) => out.push(d));
  child.stderr.on('data', (d: Buffer) => {
    log.write(d);
    errTail = (errTail + d.toString('utf8')).slice(-4000);
  });
  child.stdin.on('error', () => undefined); // a launcher that never reads stdin
  child.stdin.end(t.message);
  const signal = (s: NodeJS.Signals) => {
    try {
      if (child.pid) process.kill(-child.pid, s);
    } catch {
      /* already gone */
    }
  };
  const done = new Promise<TurnOutcome>((resolve) => {
    let finished = false;
    const finish = (exitCode: number, extra = '') => {
      if (finished) return;
      finished = true;
      const lines = (errTail + extra).split('\n').map((l) => l.trim()).filter(Boolean);
      const outcome = { exitCode, reply: Buffer.concat(out).toString('utf8').trimEnd(), lastStderrLine: lines.at(-1) ?? '' };
      // The turn's log is complete on disk before the turn counts as over.
      if (log.closed || log.destroyed) resolve(outcome);
      else {
        log.once('close', () => resolve(outcome));
        log.end();
      }
    };
    child.on('error', (e) => finish(127, `cannot run ${t.launcher}: ${e.message}`));
    child.on('close', (code, sig) => finish(code ?? (sig ? 128 : 1)));
    // A background process the launcher left behind may hold stdout open: once the launcher
    // itself has exited, its group gets 2 s to let go.
    child.on('exit', () => setTimeout(() => signal('SIGKILL'), 2000).unref());
  });
  return {
    done,
    stop(graceMs = 5000) {
      signal('SIGTERM');
      setTimeout(() => signal('SIGKILL'), graceMs).unref();
    },
  };
}
