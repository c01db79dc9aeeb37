import type { Command } from 'commander';
import { addDatasetOptions, type DatasetFlags } from '../../config/cli-options.js';

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
      const [{ planFromDatasetFlags }, { runPlanCommand }] = await Promise.all([import('../../config/cli-flags.js'), import('../../orchestrator/session.js')]);
      return runPlanCommand(c.optsWithGlobals().envFile, () => planFromDatasetFlags(f, process.env));
    });
}
