// What the run commands share: resolve the dataset, print the plan, connect to the engine,
// check the image, wire Ctrl-C, execute, print the report, choose the exit code.
// Exit codes: 0 every run judged (and, for `run`, passed); 1 `run` failed; 3 infrastructure
// errors remain (rerun with --retry); 130 interrupted; 2 bad input (thrown ConfigError etc.).
import type { RunPlan } from '../plan/plan.js';
import { formatSummary } from '../config/summary.js';
import { validateOnHost } from '../config/validate-host.js';
import { resolveDataset, type ResolvedDataset } from '../dataset/index.js';
import { EngineError, type UnitBackend } from '../engine/index.js';
import { connectBackend } from '../engine/connect.js';
import { createProgress, type Progress } from '../progress/index.js';
import { runScenario } from '../run/index.js';
import { loadEnvForCli } from '../env/cli-env.js';
import { redact } from '../secrets/redact.js';
import { setMaxListeners } from 'node:events';
import { join } from 'node:path';
import { executePlan, type ExecuteOutcome } from './execute.js';
import { missingReferenceImageMessage, referenceImage } from '../image/reference-images.js';
import type { RunScenarioFn } from '../run/index.js';

export const EXIT = { ok: 0, failed: 1, usage: 2, errors: 3, interrupted: 130 } as const;

export interface SessionIO {
  out: (text: string) => void;
  err: (text: string) => void;
  env?: Record<string, string | undefined>;
  /** Injected in tests; default: discovered engine and the real scenario run. */
  engine?: UnitBackend;
  runScenario?: RunScenarioFn;
  progress?: Progress;
  signal?: AbortSignal;
  pollIntervalMs?: number;
}

export async function prepareDataset(plan: RunPlan, io: SessionIO): Promise<ResolvedDataset> {
  return resolveDataset(plan.target, { env: io.env ?? process.env, log: (l) => io.err(l + '\n') });
}

export function printSummary(plan: RunPlan, ds: ResolvedDataset | null, io: SessionIO): void {
  io.out(formatSummary(plan, plan.target.kind === 'scenario' || !ds ? null : ds.entries.length).join('\n') + '\n');
}

/** Runs a prepared plan; returns the exit code and the outcome (null when nothing ran). */
export async function runSession(plan: RunPlan, ds: ResolvedDataset, io: SessionIO): Promise<{ code: number; outcome: ExecuteOutcome | null }> {
  if (ds.entries.length === 0) {
    io.err('No scenarios to run (empty dataset, or nothing matched --subset/--splits).\n');
    return { code: EXIT.ok, outcome: null };
  }
  const engine = io.engine ?? (await connectBackend(plan.run.backend, { env: (io.env ?? process.env) as NodeJS.ProcessEnv }));
  const ac = new AbortController();
  // Every run in flight waits on this signal (a few listeners each): at -j 256 Node's default
  // of 10 listeners would print a leak warning for what is the normal load.
  setMaxListeners(Math.max(10, plan.run.concurrency * 4), ac.signal);
  io.signal?.addEventListener('abort', () => ac.abort(), { once: true });
  let signals = 0;
  const onSignal = () => {
    signals++;
    if (signals === 1) {
      io.err('\nInterrupted: stopping this run’s containers (Ctrl-C again to exit at once)…\n');
      ac.abort();
    } else process.exit(EXIT.interrupted);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    // (a backend without an image store pulls when a unit needs it: a failed pull is that run's error)
    if (engine.images && !(await engine.images.exists(plan.agent.image))) {
      // A reference image's name (gaia2-oc, hermes, …) is not ours to build: say what it is.
      const ref = referenceImage(plan.agent.image);
      throw new EngineError('image_missing', ref ? missingReferenceImageMessage(plan.agent.image, ref) : `image ${plan.agent.image} not found in the engine; build it with: gaia2-runner build-image --tag ${plan.agent.image}`);
    }
    const outcome = await executePlan(plan, ds, {
      engine,
      runScenario: io.runScenario ?? runScenario,
      progress: io.progress ?? createProgress(),
      hostEnv: io.env ?? process.env,
      signal: ac.signal,
      ...(io.pollIntervalMs ? { pollIntervalMs: io.pollIntervalMs } : {}),
    });
    if (plan.run.outputDir) {
      // The viewer is a convenience: a failure to render never changes the run's outcome.
      const { buildViewer } = await import('../viewer/index.js');
      await buildViewer(plan.run.outputDir).then(
        () => io.out(`Trace viewer: ${join(plan.run.outputDir!, 'index.html')}\n`),
        (e: Error) => io.err(`viewer not generated: ${redact(e.message)}\n`),
      );
    }
    return { code: exitCodeOf(plan, outcome), outcome };
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    if (!io.engine) await engine.close();
  }
}

function exitCodeOf(plan: RunPlan, o: ExecuteOutcome): number {
  if (o.interrupted) return EXIT.interrupted;
  if (o.notStarted) return EXIT.errors; // runs of the plan never ran: --retry runs them
  const g = o.report.overall;
  if (g.errors > 0) return EXIT.errors;
  if (plan.command === 'run' || (plan.command === 'run-config' && plan.target.kind === 'scenario')) return g.failed > 0 ? EXIT.failed : EXIT.ok;
  return EXIT.ok;
}

export function printOutcome(plan: RunPlan, o: ExecuteOutcome, io: SessionIO): void {
  if (plan.target.kind === 'scenario' && o.results[0]) io.out(redact(JSON.stringify(o.results[0], null, 2)) + '\n');
  io.out(o.reportText);
  if (plan.run.outputDir) io.out(`Results: ${plan.run.outputDir}/results.jsonl, report: ${plan.run.outputDir}/report.md\n`);
  if (o.report.overall.errors > 0 && plan.run.outputDir) io.out(`Some runs ended in infrastructure errors; rerun only those with --retry.\n`);
}

/**
 * The whole action of `run`, `run-dataset` and `run-config`: load .env, build the plan,
 * resolve the dataset, optionally print the plan, run, print the outcome, set the exit code.
 */
export async function runPlanCommand(
  envFile: string | undefined,
  makePlan: () => RunPlan,
  o: { summary?: boolean; dryRun?: boolean; /** What a dry run does after the summary. */ dryRunAction?: (plan: RunPlan, ds: ResolvedDataset, io: SessionIO) => Promise<void> } = {},
): Promise<void> {
  const io: SessionIO = { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s) };
  loadEnvForCli(envFile, (l) => io.err(l + '\n'));
  const plan = makePlan();
  validateOnHost(plan, process.env);
  const ds = await prepareDataset(plan, io);
  if (o.summary || o.dryRun) printSummary(plan, ds, io);
  if (o.dryRun) return o.dryRunAction?.(plan, ds, io);
  const { code, outcome } = await runSession(plan, ds, io);
  if (outcome) printOutcome(plan, outcome, io);
  process.exitCode = code;
}
