import type { Command } from 'commander';
import { addDatasetOptions, planFromDatasetFlags, type DatasetFlags } from '../../config/cli-flags.js';
import { loadEnvForCli } from '../../env/index.js';
import { prepareDataset, printOutcome, runSession } from '../../orchestrator/session.js';

export function register(program: Command): void {
  const cmd = program.command('run-dataset').description('run many scenarios (directory, .jsonl, file or Hugging Face dataset), pass@N, retry');
  addDatasetOptions(cmd)
    .addHelpText(
      'after',
      '\nExit: 0 all runs judged, 3 infrastructure errors remain (use --retry), 130 interrupted, 2 bad input.\n' +
        'Examples:\n  $ gaia2-runner run-dataset -d examples/scenarios --agent oracle -j 4 --output-dir out/\n' +
        '  $ gaia2-runner run-dataset -d meta-agents-research-environments/gaia2-cli --splits search --limit 5 --provider anthropic --model claude-sonnet-4-5 --output-dir out/',
    )
    .action(async (f: DatasetFlags, c: Command) => {
      const io = { out: (s: string) => process.stdout.write(s), err: (s: string) => process.stderr.write(s) };
      loadEnvForCli(c.optsWithGlobals().envFile, (l) => io.err(l + '\n'));
      const plan = planFromDatasetFlags(f, process.env);
      const ds = await prepareDataset(plan, io);
      const { code, outcome } = await runSession(plan, ds, io);
      if (outcome) printOutcome(plan, outcome, io);
      process.exitCode = code;
    });
}
