import type { Command } from 'commander';
import { addAgentOptions, planFromRunFlags, type AgentFlags } from '../../config/cli-flags.js';
import { runPlanCommand } from '../../orchestrator/session.js';

export function register(program: Command): void {
  const cmd = program.command('run').description('run one scenario in one container and judge it');
  addAgentOptions(cmd.requiredOption('-s, --scenario <file>', 'scenario JSON file'))
    .addHelpText('after', '\nExit: 0 pass, 1 fail, 3 infrastructure error, 2 bad input.\nExample:\n  $ gaia2-runner run -s scenario.json --agent oracle --output-dir out/')
    .action((f: AgentFlags & { scenario: string }, c: Command) => runPlanCommand(c.optsWithGlobals().envFile, () => planFromRunFlags(f, process.env)));
}
