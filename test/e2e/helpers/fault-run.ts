// The fault-injection suites (issue T, docs/reliability.md): a dataset run of the runner's CLI
// started in the background, watched until the fault is due, then awaited; and the figures each
// suite records for the CI log (what the fault cost in time, and that it cost no run).
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

const root = join(import.meta.dirname, '..', '..', '..');

/** Passing result.json files under an output dir (attempts moved aside are skipped). */
export function passes(dir: string): number {
  let n = 0;
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      if (name.startsWith('.')) continue;
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name === 'result.json' && JSON.parse(readFileSync(p, 'utf8')).status === 'pass') n++;
    }
  };
  if (existsSync(dir)) walk(dir);
  return n;
}

export interface BackgroundRun {
  /** Everything the CLI printed so far (stdout and stderr interleaved). */
  output(): string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  /** Waits until `n` runs passed (throws after `withinMs` or if the CLI ended first). */
  untilPasses(n: number, withinMs: number): Promise<void>;
  /** Milliseconds since the CLI started. */
  elapsedMs(): number;
}

/** `gaia2-runner ARGS` in a child process with `env`, writing its runs under `out`. */
export function startCli(args: string[], env: NodeJS.ProcessEnv, out: string): BackgroundRun {
  const t0 = Date.now();
  const cli = spawn(process.execPath, [join(root, 'bin/gaia2-runner.mjs'), ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  cli.stdout!.on('data', (b: Buffer) => (text += b.toString()));
  cli.stderr!.on('data', (b: Buffer) => (text += b.toString()));
  const exited = new Promise<number | null>((r) => cli.once('close', (code) => r(code)));
  return {
    output: () => text,
    exited,
    elapsedMs: () => Date.now() - t0,
    async untilPasses(n, withinMs) {
      const deadline = Date.now() + withinMs;
      while (passes(out) < n) {
        if (Date.now() > deadline || cli.exitCode !== null) throw new Error(`fewer than ${n} runs passed within ${withinMs / 1000} s:\n${text}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
  };
}

/** One fault's figures, as the CI log prints them (scripts/test.mjs reads the file at the end). */
export interface FaultFigure {
  fault: string;
  engine: string;
  runs: number;
  passed: number;
  restarts: number;
  /** How long the fault itself lasted (the engine away, …), in seconds; null where it has no length. */
  fault_s: number | null;
  /** The invocation's wall time with the fault, in seconds. */
  wall_s: number;
}

export const FAULT_FIGURES = join(root, '.cache', 'fault-figures.jsonl');

export function recordFaultFigure(f: FaultFigure): void {
  mkdirSync(dirname(FAULT_FIGURES), { recursive: true });
  appendFileSync(FAULT_FIGURES, `${JSON.stringify(f)}\n`);
  console.log(`fault figure: ${JSON.stringify(f)}`);
}

/** results.jsonl's lines: status and restarts. */
export const resultLines = (out: string): Array<{ status: string; infra_restarts?: number; error_kind?: string }> =>
  readFileSync(join(out, 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
