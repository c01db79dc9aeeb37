import { dirname } from 'node:path';
import type { Command } from 'commander';
import { ConfigError } from '../../plan/errors.js';

export function register(program: Command): void {
  program
    .command('rerun')
    .description('run again what a finished run recorded in its run_config.json (same scenarios, agent, judge and options)')
    .argument('<run>', 'a run directory or its run_config.json')
    .requiredOption('--output-dir <dir>', 'where the new run goes (never the recorded one)')
    .option('--pin-revision', 'use the recorded Hugging Face commit instead of the branch name')
    .option('--dry-run', 'print the plan; launch nothing')
    .addHelpText('after', '\nExample:\n  $ gaia2-runner rerun runs/exp1 --output-dir runs/exp1-again --pin-revision')
    .action(async (run: string, f: { outputDir: string; pinRevision?: boolean; dryRun?: boolean }, c: Command) => {
      const [{ planFromRunRecord }, { readRunRecord }, { runPlanCommand }] = await Promise.all([
        import('../../config/from-run-record.js'),
        import('../../record/index.js'),
        import('../../orchestrator/session.js'),
      ]);
      return runPlanCommand(
        c.optsWithGlobals().envFile,
        () => {
          const { file, rec } = readRunRecord(run);
          const plan = planFromRunRecord(rec, file, process.env, { outputDir: f.outputDir, pinRevision: Boolean(f.pinRevision) });
          if (dirname(file) === plan.run.outputDir || dirname(dirname(file)) === plan.run.outputDir) throw new ConfigError('--output-dir must differ from the recorded run (a rerun never overwrites it)');
          return plan;
        },
        { summary: true, dryRun: Boolean(f.dryRun) },
      );
    });
}
