// Public API of the app world: used by the world daemon, `gaia2-runner world`, the agents and
// tests. runCli/runAction never write events.jsonl: they return the lines, and the caller
// appends them with appendEventLines (the daemon is the single writer).
import type { EventLine } from '../contract/events.js';
import { pyDumps } from '../contract/pyjson.js';
import { APPS, appForCli, cliName } from './catalog.js';
import { runAppCli, type CommandResult, type WorldContext } from './framework/dispatch.js';
import { pyStr } from './framework/python.js';
import type { AppDef, OptionType } from './framework/types.js';
import { REGISTRY, entryForAppName, entryForCli } from './registry.js';

export { CLI_NAMES, resolveScenarioTools } from './registry.js';
export { initWorld, type InitResult, type InitOptions } from './init.js';
export { MemoryStates, type MemoryStatesOptions } from './framework/state-store.js';
export { DriveBuild } from './drive-tree.js';
export type { CommandResult, WorldContext } from './framework/dispatch.js';
export type { EventLine };

const failure = (stderr: string, exitCode: number): CommandResult => ({ stdout: '', stderr, exitCode, events: [] });

/** Runs one app command line; argv[0] is the binary (calendar, emails, …). */
export async function runCli(argv: readonly string[], ctx: WorldContext): Promise<CommandResult> {
  const cli = cliName(argv);
  const found = appForCli(cli);
  const app = found && ctx.surface ? ctx.surface(found) : found;
  if (!app) {
    const known = entryForCli(cli) ? `app '${cli}' is not implemented` : `unknown app command '${cli}'`;
    return failure(`${known}; available: ${APPS.map((a) => a.cli).join(', ')}\n`, 127);
  }
  return runAppCli(app, argv.slice(1), ctx);
}

const kebab = (s: string): string => s.replace(/_/g, '-');

/**
 * Runs an ARE function call (ENV event, oracle replay) the way the reference daemon does: the
 * scenario app name or class picks the binary, `fn` the subcommand (kebab-case, or the command
 * logging that ARE name), and each arg becomes `--option value` (Python str() of the value,
 * JSON for lists/dicts, bare flag when true, omitted when null).
 */
export async function runAction(app: string, fn: string, args: Record<string, unknown>, ctx: WorldContext): Promise<CommandResult> {
  const entry = entryForAppName(app) ?? entryForCli(app);
  if (!entry) return failure(`No app CLI for scenario app '${app}'\n`, 2);
  const def = appForCli(entry.cli);
  const cmd = def?.commands.find((c) => c.name === kebab(fn)) ?? def?.commands.find((c) => c.fn === fn);
  const argv = [entry.cli, cmd?.name ?? kebab(fn)];
  for (const [name, value] of Object.entries(args)) {
    if (value === null || value === undefined) continue;
    const opt = cmd?.options.find((o) => o.name === name || o.dest === name);
    const flag = opt?.flags[0] ?? `--${kebab(name)}`;
    if (typeof value === 'boolean' && opt?.type === 'flag') {
      if (value) argv.push(flag);
      continue;
    }
    argv.push(flag, typeof value === 'object' ? pyDumps(value) : pyStr(value));
  }
  return runCli(argv, ctx);
}

export interface CliOptionSpec {
  /** ARE parameter name (key of logged args). */
  name: string;
  /** Primary flag, e.g. "--folder-name". */
  flag: string;
  aliases: string[];
  type: OptionType;
  required: boolean;
  /** Value used when omitted (null when none). */
  default: unknown;
  help: string;
}

export interface CliCommandSpec {
  name: string;
  /** ARE function name logged for this command. */
  fn: string;
  write: boolean;
  /** ENV-only command, not meant for the agent. */
  hidden: boolean;
  help: string;
  options: CliOptionSpec[];
}

export interface CliSpec {
  cli: string;
  description: string;
  help: string;
  commands: CliCommandSpec[];
}

/** Machine-readable command surface of every implemented app (e.g. one function tool per command). */
export function cliSpecs(): CliSpec[] {
  return REGISTRY.flatMap((e) => {
    const app = appForCli(e.cli);
    return app ? [cliSpecOf(app, e.description)] : [];
  });
}

/** The command surface of one app definition. */
export function cliSpecOf(app: AppDef, description: string): CliSpec {
  return {
    cli: app.cli,
    description,
    help: app.help,
    commands: app.commands.map((c) => ({
      name: c.name,
      fn: c.fn,
      write: c.write,
      hidden: !!c.hidden,
      help: c.help,
      options: c.options.map((o) => ({
        name: o.name,
        flag: o.flags[0]!,
        aliases: o.flags.slice(1),
        type: o.type,
        required: !!o.required,
        default: o.default !== undefined ? o.default : o.type === 'flag' ? false : null,
        help: o.help ?? '',
      })),
    })),
  };
}
