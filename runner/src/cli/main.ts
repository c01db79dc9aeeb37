// gaia2-runner command line. Each command lives in ./commands/<name>.ts and registers
// itself on the program; this file only wires them up and maps errors to exit codes.
import './memory-mode.js'; // first: before anything allocates
import { Command, CommanderError } from 'commander';
import pkg from '../../../package.json' with { type: 'json' };
import { registerCommands } from './commands/index.js';
import { exitCodeFor, formatError } from './errors.js';

const program = new Command('gaia2-runner')
  .description('Run LLM agents on Gaia2 scenarios, one container per scenario run, and judge them.')
  .version(pkg.version, '-V, --version', 'print the runner version')
  .option('--env-file <path>', 'load variables from this .env file (default: ./.env when present)')
  .showHelpAfterError()
  // Usage errors (unknown option, missing argument) are bad input: exit 2, not commander's 1.
  .exitOverride();

registerCommands(program);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  // commander prints its own messages (and the help / version).
  if (!(err instanceof CommanderError)) process.stderr.write(`gaia2-runner: ${formatError(err)}\n`);
  process.exitCode = exitCodeFor(err);
}
