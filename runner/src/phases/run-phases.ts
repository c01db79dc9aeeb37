// gaia2-run: the phases one after the other into one output root, each a normal dataset run
// (same engine checks, progress, results, reports, viewer, --retry), then the overall table.
// A phase that cannot be built (bad settings, missing support) is reported and skipped, and
// the others still run, as the reference's submission pipeline does.
import { mkdirSync } from 'node:fs';
import { ConfigError } from '../plan/errors.js';
import type { RunPlan } from '../plan/plan.js';
import { validateOnHost } from '../config/validate-host.js';
import { EXIT, prepareDataset, printOutcome, printSummary, runSession, type SessionIO } from '../orchestrator/session.js';
import { redact } from '../secrets/redact.js';
import type { PhaseName } from '../plan/phases.js';
import { buildPhasesReport, savePhasesReport, type PhaseOutcome } from './overall-report.js';
import { phasePlan, type PhaseRunSettings, type PhaseSource } from './phase-plans.js';

// Worst first: an interruption, then infrastructure errors, then a phase that could not run.
const SEVERITY: number[] = [EXIT.interrupted, EXIT.errors, EXIT.usage, EXIT.failed, EXIT.ok];
const worse = (a: number, b: number): number => (SEVERITY.indexOf(a) <= SEVERITY.indexOf(b) ? a : b);

export async function runPhases(src: PhaseSource, phases: readonly PhaseName[], s: PhaseRunSettings, io: SessionIO, o: { dryRun?: boolean } = {}): Promise<number> {
  mkdirSync(s.root, { recursive: true });
  const outcomes: PhaseOutcome[] = [];
  let code: number = EXIT.ok;
  // Every phase is built and checked on this host (providers, keys, base URLs, output dir)
  // before the first one runs: a bad app-agent key must not surface an hour in.
  const plans = new Map<PhaseName, RunPlan | ConfigError>();
  for (const phase of phases) {
    try {
      const plan = phasePlan(phase, src, s);
      validateOnHost(plan, io.env ?? process.env);
      plans.set(phase, plan);
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      plans.set(phase, e);
    }
  }
  for (const phase of phases) {
    io.out(`\n=== Phase ${phase} → ${s.root}/${phase} ===\n`);
    let r: Awaited<ReturnType<typeof runSession>>;
    try {
      const plan = plans.get(phase)!;
      if (plan instanceof ConfigError) throw plan;
      const ds = await prepareDataset(plan, io);
      printSummary(plan, ds, io);
      if (o.dryRun) continue;
      r = await runSession(plan, ds, io);
      if (r.outcome) printOutcome(plan, r.outcome, io);
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      const msg = redact(e.message);
      io.err(`Phase ${phase} not run: ${msg}\n`);
      outcomes.push({ phase, error: msg });
      code = worse(code, EXIT.usage);
      continue;
    }
    outcomes.push({ phase, error: null });
    code = worse(code, r.code === EXIT.failed ? EXIT.ok : r.code);
    if (r.code === EXIT.interrupted) break;
  }
  if (o.dryRun) return code;
  const report = buildPhasesReport(s.root, s.runs, outcomes, s.miniSubset);
  io.out('\n' + (await savePhasesReport(report)));
  io.out(`Overall report: ${s.root}/report.md\n`);
  return code;
}
