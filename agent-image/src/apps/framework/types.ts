// The shapes an app is made of: an AppDef is a Click-like group of CommandDefs, each with
// typed options; a command's run() returns what to print and what to log.

export type OptionType = 'text' | 'integer' | 'float' | 'flag';

export interface OptionDef {
  /** ARE parameter name: key in the parsed options and in logged args. */
  name: string;
  /** Long flags, primary first (e.g. ['--folder-name', '--folder']). */
  flags: string[];
  /** Extra flags we accept (our additions) that Click's suggestions and help do not show. */
  hiddenFlags?: string[];
  /** Click dest when it differs from `name` (shown as the parameter name in `schema`). */
  dest?: string;
  type: OptionType;
  required?: boolean;
  /** Value when the option is absent; null when undefined (flags default to false). */
  default?: unknown;
  help?: string;
  /**
   * Conversion of a given value, run after all of Click's own checks in declaration order (the
   * reference parses such values first thing in the command body, e.g. email JSON lists);
   * throw BadParameter for a usage error "Error: Invalid value: …" (exit 2).
   */
  convert?: (raw: unknown) => unknown;
}

export interface CommandOutcome {
  /** Printed as Python json.dumps(indent=2) + "\n" unless `raw` is set. */
  output?: unknown;
  /** Printed verbatim instead of `output` (cloud-drive cat/tree). */
  raw?: string;
  /** Logged args (ARE names, every parameter present). */
  args: Record<string, unknown>;
  /** Logged return value. */
  ret: unknown;
}

export interface AppContext {
  /** Simulated "now", epoch seconds. */
  readonly now: number;
  /** Simulated "now" as the reference's `YYYY-MM-DD HH:MM:SS` (UTC). */
  readonly simTime: string;
  readonly stateDir: string;
  /**
   * Cloud-drive root: fsRoot from the WorldContext, else <stateDir>/filesystem. The only way
   * app code reaches the drive's files: reading it tells the world the command needs the drive
   * (WorldContext.beforeDrive), so read it where the files are used, not ahead of time.
   */
  readonly fsRoot: string;
  /** A fresh id (uuid4().hex in production, injectable in tests). */
  newId(): string;
  /** This app's state file, parsed with parsePyJson; null when the file does not exist. */
  loadState(): Record<string, unknown> | null;
  /** Writes this app's state file atomically (pretty JSON, ASCII-escaped, trailing newline). */
  saveState(state: Record<string, unknown>): void;
}

export interface CommandDef {
  /** Kebab-case subcommand name. */
  name: string;
  /** ARE function name logged as `fn`. */
  fn: string;
  /** ARE operation type: true for writes. */
  write: boolean;
  /** ENV-only commands (called by the daemon), not listed in --help. */
  hidden?: boolean;
  /** Our addition, absent from the reference CLI: never offered in "Did you mean" (usage errors stay the reference's). */
  extension?: boolean;
  /** Docstring: first line is the summary shown in group help. */
  help: string;
  options: OptionDef[];
  run(opts: Record<string, unknown>, ctx: AppContext): CommandOutcome | Promise<CommandOutcome>;
}

export interface AppDef {
  /** Binary name, e.g. 'calendar'. */
  cli: string;
  /** Reference APP_NAME (= state_name): decides the state file name and the default `app` field. */
  stateName: string;
  /** Class logged as `app` when app_class_map.json has no entry (reference set_log_class). */
  logClass?: string;
  /** Group docstring. */
  help: string;
  commands: CommandDef[];
}
