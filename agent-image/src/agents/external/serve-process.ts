// One start of an agent layer's serve program (contract/agent-serve.ts): spawned in its own
// process group as the launcher would be, its stdout read as protocol lines, its stderr kept in
// the serve log. The runtime (serve-runtime.ts) decides what the lines mean for the world.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { lineSplitter } from '../../contract/agent-protocol.js';
import type { RuntimeToServe, ServeToRuntime } from '../../contract/agent-serve.js';

export interface ServeStart {
  program: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Where the program's stderr goes (appended: every start of a run writes there). */
  stderrLog: string;
}

export interface ServeExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The last non-empty stderr line, for the failure text. */
  lastStderrLine: string;
}

export class ServeProcess {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly log: WriteStream;
  private errTail = '';
  private exitInfo: ServeExit | null = null;
  private readonly exitWaiters: Array<(e: ServeExit) => void> = [];
  private lineHandler: (m: ServeToRuntime) => void = () => undefined;

  constructor(s: ServeStart) {
    this.log = createWriteStream(s.stderrLog, { flags: 'a' });
    this.log.on('error', () => undefined); // an unwritable log must not end the runtime
    this.child = spawn(s.program, [], { cwd: s.cwd, env: s.env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdin.on('error', () => undefined); // a program that exited with input unread
    this.child.stdout.on(
      'data',
      lineSplitter((line) => {
        let m: ServeToRuntime;
        try {
          m = JSON.parse(line) as ServeToRuntime;
        } catch {
          this.note(`agent-serve wrote a line that is not JSON: ${line.slice(0, 300)}`);
          return;
        }
        if (m && typeof m === 'object' && typeof m.type === 'string') this.lineHandler(m);
      }),
    );
    this.child.stderr.on('data', (d: Buffer) => {
      this.log.write(d);
      this.errTail = (this.errTail + d.toString('utf8')).slice(-4000);
    });
    const finish = (code: number | null, signal: NodeJS.Signals | null, extra = '') => {
      if (this.exitInfo) return;
      const lines = (this.errTail + extra).split('\n').map((l) => l.trim()).filter(Boolean);
      this.exitInfo = { code, signal, lastStderrLine: lines.at(-1) ?? '' };
      // Whatever the program left running in its group goes with it.
      this.signal('SIGKILL');
      for (const w of this.exitWaiters.splice(0)) w(this.exitInfo);
    };
    this.child.on('error', (e) => finish(127, null, `cannot run ${s.program}: ${e.message}`));
    // Lines the program wrote just before it exited are read first (stdout's end); a child it
    // left behind may hold stdout open, so that wait is short.
    let stdoutEnded = false;
    this.child.stdout.on('end', () => (stdoutEnded = true));
    this.child.on('exit', (code, signal) => {
      if (stdoutEnded) return finish(code, signal);
      const t = setTimeout(() => finish(code, signal), 1000);
      this.child.stdout.once('end', () => {
        clearTimeout(t);
        finish(code, signal);
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get exited(): ServeExit | null {
    return this.exitInfo;
  }

  onLine(handler: (m: ServeToRuntime) => void): void {
    this.lineHandler = handler;
  }

  /** Resolves when the program has exited. */
  whenExited(): Promise<ServeExit> {
    return this.exitInfo ? Promise.resolve(this.exitInfo) : new Promise((r) => this.exitWaiters.push(r));
  }

  send(m: RuntimeToServe): void {
    if (!this.exitInfo && this.child.stdin.writable) this.child.stdin.write(JSON.stringify(m) + '\n');
  }

  /** A line of ours in the serve log (what the runtime saw that the program did not say). */
  note(text: string): void {
    this.log.write(`[gaia2 runtime] ${text}\n`);
  }

  /** Asks the program to stop (shutdown line, then SIGTERM to its group), SIGKILL after `graceMs`. */
  stop(reason: string, graceMs = 5000): Promise<ServeExit> {
    if (!this.exitInfo) {
      this.send({ type: 'shutdown', reason });
      this.child.stdin.end();
      this.signal('SIGTERM');
      setTimeout(() => this.signal('SIGKILL'), graceMs).unref();
    }
    return this.whenExited().then((e) => this.closeLog().then(() => e));
  }

  closeLog(): Promise<void> {
    if (this.log.closed || this.log.destroyed) return Promise.resolve();
    return new Promise((r) => this.log.end(r));
  }

  private signal(s: NodeJS.Signals): void {
    try {
      if (this.child.pid) process.kill(-this.child.pid, s);
    } catch {
      /* already gone */
    }
  }
}
