import type { Command } from 'commander';
import { addAgentOptions, planFromRunFlags, type AgentFlags } from '../../config/cli-flags.js';
import { loadEnvForCli } from '../../env/index.js';
import { prepareDataset, printOutcome, runSession } from '../../orchestrator/session.js';

export function register(program: Command): void {
  const cmd = program.command('run').description('run one scenario in one container and judge it');
  addAgentOptions(cmd.requiredOption('-s, --scenario <file>', 'scenario JSON file'))
    .addHelpText('after', '\nExit: 0 pass, 1 fail, 3 infrastructure error, 2 bad input.\nExample:\n  $ gaia2-runner run -s scenario.json --agent oracle --output-dir out/')
    .action(async (f: AgentFlags & { scenario: string }, c: Command) => {
      const io = { out: (s: string) => process.stdout.write(s), err: (s: string) => process.stderr.write(s) };
      loadEnvForCli(c.optsWithGlobals().envFile, (l) => io.err(l + '\n'));
      const plan = planFromRunFlags(f, process.env);
      const ds = await prepareDataset(plan, io);
      const { code, outcome } = await runSession(plan, ds, io);
      if (outcome) printOutcome(plan, outcome, io);
      process.exitCode = code;
    });
}
