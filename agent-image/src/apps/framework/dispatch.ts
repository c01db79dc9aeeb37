// Runs one app command in-process: resolve the binary and subcommand, parse like Click,
// execute against the state dir, and turn the outcome into stdout/stderr/exit code plus the
// events.jsonl line the caller appends. Nothing here writes events.jsonl.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { CARRIED_DRIVE_DIR } from '../../contract/carry.js';
import type { EventLine } from '../../contract/events.js';
import { PyJsonText, compactFromIndented, pyDumps } from '../../contract/pyjson.js';
import { commandHelp, groupHelp, parseCommandArgs, resolveCommand, usageError } from './click.js';
import { AppError, BadParameter, ClickUsageError } from './errors.js';
import { stateFilePath } from './state.js';
import { FileStates, detached, type StateStore } from './state-store.js';
import { simTimeToEpoch } from './time.js';
import type { AppContext, AppDef, CommandDef, CommandOutcome } from './types.js';

export interface WorldContext {
  stateDir: string;
  /** Simulated now, `YYYY-MM-DD HH:MM:SS` UTC. */
  simTime: string;
  /** Stamped as event_id on the logged line (ENV/USER actions, oracle replay). */
  eventId?: string;
  /** Cloud-drive root; default <stateDir>/filesystem. */
  fsRoot?: string;
  /**
   * Called each time a command reaches for the drive's files (AppContext.fsRoot), before it
   * gets the root: the world daemon finishes building the drive's tree there (apps/drive-tree.ts),
   * so a command that never touches the drive never waits for it. May throw (the tree could not
   * be built): the command then fails with that error.
   */
  beforeDrive?: () => void;
  /** Id generator; default uuid4().hex. */
  ids?: () => string;
  /** What the agent sees of an app (Noise phase: renamed commands, rewritten help). */
  surface?: (app: AppDef) => AppDef;
  /** Where app states live; default the state files themselves, read and written per command. */
  states?: StateStore;
}

export interface CommandResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  events: EventLine[];
}

const FILE_STATES = new FileStates();
const uuidHex = (): string => randomUUID().replace(/-/g, '');

export const SCHEMA_COMMAND = 'schema';
const SCHEMA_DEF: CommandDef = {
  name: SCHEMA_COMMAND,
  fn: SCHEMA_COMMAND,
  write: false,
  help: 'Print the machine-readable command schema.',
  options: [],
  run: () => ({ args: {}, ret: null }),
};
// Commands every group has besides its app's own (never logged).
const BUILTINS: ReadonlyArray<[string, string]> = [[SCHEMA_COMMAND, SCHEMA_DEF.help]];

const result = (stdout: string, stderr: string, exitCode: number, events: EventLine[] = []): CommandResult => ({
  stdout,
  stderr,
  exitCode,
  events,
});

// One command at a time per state dir, like the reference's per-file flock.
const queues = new Map<string, Promise<unknown>>();
function serialised<T>(key: string, job: () => Promise<T>): Promise<T> {
  const prev = queues.get(key) ?? Promise.resolve();
  const next = prev.then(job, job);
  const tail = next.then(
    () => undefined,
    () => undefined,
  );
  queues.set(key, tail);
  // Forget idle state dirs so a long-lived process does not keep one entry per world.
  void tail.then(() => {
    if (queues.get(key) === tail) queues.delete(key);
  });
  return next;
}

export function makeAppContext(app: AppDef, ctx: WorldContext, now: number): AppContext {
  const file = stateFilePath(ctx.stateDir, app.stateName);
  const states = ctx.states ?? FILE_STATES;
  const fsRoot = ctx.fsRoot ?? join(ctx.stateDir, CARRIED_DRIVE_DIR);
  const beforeDrive = ctx.beforeDrive;
  return {
    now,
    simTime: ctx.simTime,
    stateDir: ctx.stateDir,
    // A getter: every path into the drive asks for the root first, so this is where a
    // command that touches drive files, and only such a command, waits for the whole tree.
    get fsRoot() {
      beforeDrive?.();
      return fsRoot;
    },
    newId: ctx.ids ?? uuidHex,
    loadState: () => states.load(file),
    saveState: (state) => states.save(file, state),
  };
}

/** Runs argv (argv[0] = binary) against app `app`. */
export function runAppCli(app: AppDef, args: readonly string[], ctx: WorldContext): Promise<CommandResult> {
  return serialised(ctx.stateDir, async () => {
    const states = ctx.states ?? FILE_STATES;
    states.begin();
    let out: CommandResult;
    try {
      out = await runUnlocked(app, args, ctx);
    } catch (e) {
      if (e instanceof ClickUsageError) out = result('', e.message + '\n', 2);
      else if (e instanceof AppError) out = result('', e.message + '\n', 1);
      else {
        // Reference tracebacks become one clear line: never a stack trace.
        const msg = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
        out = result('', `${app.cli}: ${msg}\n`, 1);
      }
    }
    states.end(out.exitCode === 0);
    return out;
  });
}

async function runUnlocked(app: AppDef, args: readonly string[], ctx: WorldContext): Promise<CommandResult> {
  if (args.length === 0) return result('', groupHelp(app, BUILTINS), 2);
  if (args[0] === '--help') return result(groupHelp(app, BUILTINS), '', 0);
  const name = resolveCommand(app, args[0]!, BUILTINS.map(([n]) => n));
  if (name === SCHEMA_COMMAND) {
    const parsed = parseCommandArgs(app.cli, SCHEMA_DEF, args.slice(1));
    return result(parsed.help ? commandHelp(app.cli, SCHEMA_DEF) : pyDumps(schemaOf(app), { indent: 2 }) + '\n', '', 0);
  }
  const cmd = app.commands.find((c) => c.name === name)!;
  const parsed = parseCommandArgs(app.cli, cmd, args.slice(1));
  if (parsed.help) return result(commandHelp(app.cli, cmd), '', 0);
  const now = simTimeToEpoch(ctx.simTime);
  let outcome;
  try {
    outcome = await cmd.run(parsed.opts, makeAppContext(app, ctx, now));
  } catch (e) {
    // A BadParameter raised inside a command is a usage error in Click.
    if (e instanceof BadParameter) throw usageError(app.cli, cmd.name, `Invalid value: ${e.message}`);
    throw e;
  }
  const printed = outcome.raw === undefined ? pyDumps(outcome.output ?? null, { indent: 2 }) : null;
  const line: EventLine = {
    t: now, // formatEventLine prints it as a float
    app: logClass(app, ctx),
    fn: cmd.fn,
    args: detached(outcome.args),
    w: cmd.write,
    ret: loggedReturn(outcome, printed),
  };
  if (ctx.eventId) line.event_id = ctx.eventId;
  line.sim_t = ctx.simTime;
  return result(outcome.raw ?? printed + '\n', '', 0, [line]);
}

/**
 * The return value as its events line will hold it: its compact text, made once. When the
 * command prints what it returns (searches, lists: the large answers) that text comes from the
 * printed one, so a large answer is serialised once for both. Being text, it is also the frozen
 * copy later commands cannot change (no deep copy of the value).
 */
function loggedReturn(outcome: CommandOutcome, printed: string | null): PyJsonText {
  if (printed !== null && outcome.ret === outcome.output && outcome.ret !== undefined) return new PyJsonText(compactFromIndented(printed));
  return new PyJsonText(pyDumps(outcome.ret ?? null));
}

function logClass(app: AppDef, ctx: WorldContext): string {
  return (ctx.states ?? FILE_STATES).classMap(ctx.stateDir)[app.stateName] ?? app.logClass ?? app.stateName;
}

/** The reference `schema` subcommand output. */
function schemaOf(app: AppDef): unknown[] {
  return app.commands
    .filter((c) => !c.hidden)
    .map((c) => ({
      command: c.name,
      function: c.name.replace(/-/g, '_'),
      oracle_function: c.fn,
      description: c.help.trim(),
      parameters: c.options.map((o) => ({
        name: o.dest ?? o.name,
        type: o.type === 'flag' ? 'boolean' : o.type,
        description: o.help ?? '',
        required: !!o.required,
        ...(o.required ? {} : { default: o.default !== undefined ? o.default : o.type === 'flag' ? false : null }),
      })),
    }));
}
