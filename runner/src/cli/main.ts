// gaia2-runner command line. Each command lives in ./commands/<name>.ts and registers
// itself on the program; this file only wires them up and maps errors to exit codes.
import './memory-mode.js'; // first: before anything allocates
import { Command } from 'commander';
import { registerCommands } from './commands/index.js';
import { exitCodeFor, formatError } from './errors.js';

const program = new Command('gaia2-runner')
  .description('Run LLM agents on Gaia2 scenarios, one container per scenario run, and judge them.')
  .option('--env-file <path>', 'load variables from this .env file (default: ./.env when present)')
  .showHelpAfterError();

registerCommands(program);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  process.stderr.write(`gaia2-runner: ${formatError(err)}\n`);
  process.exitCode = exitCodeFor(err);
}
