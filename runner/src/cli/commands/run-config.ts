import type { Command } from 'commander';
import { ConfigError } from '../../config/errors.js';
import { loadRunConfig } from '../../config/resolve-toml.js';
import { loadEnvForCli } from '../../env/index.js';
import { prepareDataset, printOutcome, printSummary, runSession } from '../../orchestrator/session.js';

export function register(program: Command): void {
  program
    .command('run-config')
    .description('run what a TOML config describes ([target] [agent] [judge] [run]); see docs/config.md')
    .requiredOption('-c, --config <file>', 'TOML config')
    .option('--retry', 'rerun only runs without a judged result (OR-ed with [run].retry)')
    .option('--dry-run', 'validate, resolve the scenarios, print the plan; launch nothing')
    .addHelpText('after', '\nExample:\n  $ gaia2-runner run-config --config examples/demo.toml --dry-run')
    .action(async (f: { config: string; retry?: boolean; dryRun?: boolean }, c: Command) => {
      const io = { out: (s: string) => process.stdout.write(s), err: (s: string) => process.stderr.write(s) };
      loadEnvForCli(c.optsWithGlobals().envFile, (l) => io.err(l + '\n'));
      const plan = loadRunConfig(f.config, process.env);
      plan.run.retry ||= Boolean(f.retry);
      if (plan.run.retry && plan.target.kind === 'scenario') throw new ConfigError('--retry is only supported for dataset targets');
      const ds = await prepareDataset(plan, io);
      printSummary(plan, ds, io);
      if (f.dryRun) return;
      const { code, outcome } = await runSession(plan, ds, io);
      if (outcome) printOutcome(plan, outcome, io);
      process.exitCode = code;
    });
}
