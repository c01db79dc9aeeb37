// `judge`: re-judge one events log against its scenario, or every scenario run of a finished
// run directory (rejudge.json beside each result.json; the originals are never touched).
// Without a judge model (or with --no-llm) only hard checks run: judge_mode "hard-only".
import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import type { JudgeFlags } from './judge-run.js';

export function register(program: Command): void {
  program
    .command('judge')
    .description('re-judge an events log, or every scenario run of a finished run (writes rejudge.json)')
    .option('--scenario <file>', 'scenario JSON (with --events)')
    .option('--events <file>', 'events.jsonl of one scenario run')
    .option('--output-dir <dir>', 'a finished run directory: re-judge every result.json under it')
    .option('--no-llm', 'hard checks only, even if a judge model is given')
    .option('--judge-provider <name>', 'judge LLM provider (anthropic, openai, openai-compat, google, …)')
    .option('--judge-model <model>', 'judge LLM model; without it the judge runs hard checks only')
    .option('--judge-base-url <url>', 'judge LLM base URL')
    .option('--judge-api-key-env <VAR>', "name of the variable holding the judge's API key (default: the provider's usual one)")
    .option('--judge-prompt-version <name>', 'prompt set of the soft checks: default or omnilingual-gaia2 (default: the run\'s, from its run_config.json)')
    .option('--judge-extra-body <json>', 'JSON object merged into every judge request, e.g. \'{"reasoning_effort":"low"}\'')
    .option('--json', 'print JSON')
    .addHelpText(
      'after',
      '\nExit codes (one log): 0 pass, 1 fail, 2 error.\nExamples:\n  $ gaia2-runner judge --scenario s.json --events events.jsonl --json\n  $ gaia2-runner judge --output-dir out/ --judge-provider anthropic --judge-model claude-sonnet-4-5',
    )
    .action(async (f: JudgeFlags, cmd: Command) => {
      if (f.outputDir && (f.scenario || f.events)) throw new UsageError('use either --output-dir or --scenario/--events');
      const { judge } = await import('./judge-run.js');
      await judge(f, (cmd.optsWithGlobals() as { envFile?: string }).envFile);
    });
}
