import type { Command } from 'commander';
import { addAgentOptions, type AgentFlags } from '../../config/cli-options.js';

export function register(program: Command): void {
  const cmd = program.command('run').description('run one scenario in one container and judge it');
  addAgentOptions(cmd.requiredOption('-s, --scenario <file>', 'scenario JSON file'))
    .addHelpText('after', '\nExit: 0 pass, 1 fail, 3 infrastructure error, 2 bad input.\nExample:\n  $ gaia2-runner run -s scenario.json --agent oracle --output-dir out/')
    .action(async (f: AgentFlags & { scenario: string }, c: Command) => {
      // Loaded when the command runs: `--help` and the other commands never pay for them.
      const [{ planFromRunFlags }, { runPlanCommand }] = await Promise.all([import('../../config/cli-flags.js'), import('../../orchestrator/session.js')]);
      return runPlanCommand(c.optsWithGlobals().envFile, () => planFromRunFlags(f, process.env));
    });
}
