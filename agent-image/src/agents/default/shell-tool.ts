// The `shell` tool: one bash command per call, with the app CLIs on PATH, a timeout and a
// bounded output. The child gets a scrubbed environment: no keys or tokens of this process.
import { spawn } from 'node:child_process';
import { jsonSchema, tool } from 'ai';
import { formatOutcome, type CommandOutcome } from './tool-output.js';

export interface ShellToolOptions {
  /** Directory holding the app CLIs (first on PATH). */
  binDir: string;
  cwd: string;
  timeoutMs: number;
  maxOutputChars: number;
  /** Environment the commands start from (scrubbed before use). */
  env?: NodeJS.ProcessEnv;
}

const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL|JUDGE/i;
/** Our own configuration is none of the agent's business either. */
const AGENT_CONFIG = new Set(['PROVIDER', 'MODEL', 'BASE_URL', 'THINKING', 'MAX_TOKENS', 'GAIA2_TRACE_FILE']);

export function shellEnv(base: NodeJS.ProcessEnv, binDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(base)) {
    if (v !== undefined && !SECRET_NAME.test(k) && !AGENT_CONFIG.has(k)) env[k] = v;
  }
  const rest = (base.PATH ?? '/usr/local/bin:/usr/bin:/bin').split(':').filter((d) => d && d !== binDir);
  env.PATH = [binDir, ...rest].join(':');
  return env;
}

/** Keeps the first and last `limit` characters of a stream of any length. */
class BoundedCapture {
  private head = '';
  private tail = '';
  private dropped = 0;
  constructor(private readonly limit: number) {}
  add(chunk: string): void {
    if (this.head.length < this.limit) {
      const room = this.limit - this.head.length;
      this.head += chunk.slice(0, room);
      chunk = chunk.slice(room);
    }
    this.tail += chunk;
    if (this.tail.length > this.limit) {
      this.dropped += this.tail.length - this.limit;
      this.tail = this.tail.slice(this.tail.length - this.limit);
    }
  }
  text(): string {
    return this.dropped > 0 ? `${this.head}\n[… ${this.dropped} characters cut …]\n${this.tail}` : this.head + this.tail;
  }
}

/** Runs `bash -c command`; kills the whole process group on timeout or abort. */
export function runShellCommand(command: string, opts: ShellToolOptions, signal?: AbortSignal): Promise<CommandOutcome> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', command], {
      cwd: opts.cwd,
      env: shellEnv(opts.env ?? process.env, opts.binDir),
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = new BoundedCapture(opts.maxOutputChars);
    const err = new BoundedCapture(opts.maxOutputChars);
    child.stdout.on('data', (d: Buffer) => out.add(d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => err.add(d.toString('utf8')));
    let timedOut = false;
    const kill = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, opts.timeoutMs);
    signal?.addEventListener('abort', kill, { once: true });
    child.on('error', (e) => {
      clearTimeout(timer);
      resolve({ stdout: out.text(), stderr: `${err.text()}cannot run bash: ${e.message}\n`, exitCode: 127 });
    });
    child.on('close', (code, sig) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', kill);
      resolve({ stdout: out.text(), stderr: err.text(), exitCode: code ?? (sig ? 128 : 1), timedOut, timeoutMs: opts.timeoutMs });
    });
  });
}

export const SHELL_TOOL_NAME = 'shell';

export function createShellTool(opts: ShellToolOptions) {
  return tool({
    description:
      'Run one bash command and get its output (stdout, then stderr and the exit code if non-zero). ' +
      `The app CLIs are on PATH. Commands are killed after ${Math.round(opts.timeoutMs / 1000)} s; long output is cut in the middle.`,
    inputSchema: jsonSchema<{ command: string }>({
      type: 'object',
      properties: { command: { type: 'string', description: 'The bash command line to run.' } },
      required: ['command'],
      additionalProperties: false,
    }),
    execute: async ({ command }, { abortSignal }) =>
      formatOutcome(await runShellCommand(String(command ?? ''), opts, abortSignal), opts.maxOutputChars),
  });
}
