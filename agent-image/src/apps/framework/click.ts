// A Click 8.4 emulation for one app group: option parsing (`--opt value`, `--opt=value`,
// last wins, values may start with '-'), processing order (options in first-use order, then
// the others), type conversion, the usage-error texts and "Did you mean" suggestions, and
// help pages. Only what the ten app CLIs use: long options, flags, no positional arguments.
import { PyFloat } from '../../contract/pyjson.js';
import { getCloseMatches } from './difflib.js';
import { pyRepr } from './python.js';
import { BadParameter, ClickUsageError } from './errors.js';
import type { AppDef, CommandDef, OptionDef } from './types.js';
import { detached } from './state-store.js';

const HELP_FLAG = '--help';

function usageHeader(bin: string, cmd: string | null): string {
  return cmd === null
    ? `Usage: ${bin} [OPTIONS] COMMAND [ARGS]...\nTry '${bin} --help' for help.\n\n`
    : `Usage: ${bin} ${cmd} [OPTIONS]\nTry '${bin} ${cmd} --help' for help.\n\n`;
}

export function usageError(bin: string, cmd: string | null, message: string): ClickUsageError {
  return new ClickUsageError(`${usageHeader(bin, cmd)}Error: ${message}`);
}

const quote = (s: string): string => `'${s}'`;

/** Click's "Did you mean …?" clause (sorted, repr-quoted); empty when there is nothing close. */
function suggestion(word: string, candidates: Iterable<string>): string {
  const close = getCloseMatches(word, candidates).sort();
  if (close.length === 0) return '';
  const list = close.map(quote).join(', ');
  return close.length === 1 ? ` Did you mean ${list}?` : ` (Did you mean one of: ${list}?)`;
}

const optionHint = (o: OptionDef): string => o.flags.map(quote).join(' / ');

const INT_RE = /^\s*[+-]?\d(?:_?\d)*\s*$/;
const FLOAT_RE = /^\s*[+-]?(?:(?:\d(?:_?\d)*)?\.?\d(?:_?\d)*(?:[eE][+-]?\d(?:_?\d)*)?|\d(?:_?\d)*\.|inf|infinity|nan)\s*$/i;

function convertType(o: OptionDef, raw: string): unknown {
  if (o.type === 'integer') {
    if (!INT_RE.test(raw)) throw new BadParameter(`${pyRepr(raw)} is not a valid integer.`);
    return Number(raw.trim().replace(/_/g, ''));
  }
  if (o.type === 'float') {
    if (!FLOAT_RE.test(raw)) throw new BadParameter(`${pyRepr(raw)} is not a valid float.`);
    const t = raw.trim().replace(/_/g, '').toLowerCase();
    const n = t.endsWith('inf') || t.endsWith('infinity') ? (t.startsWith('-') ? -Infinity : Infinity) : Number(t);
    return new PyFloat(n);
  }
  return raw;
}

export type ParsedCommand = { help: true } | { help: false; opts: Record<string, unknown> };

/** Parses a subcommand's arguments like Click; throws ClickUsageError (full stderr text). */
export function parseCommandArgs(bin: string, cmd: CommandDef, args: readonly string[]): ParsedCommand {
  const fail = (msg: string): never => {
    throw usageError(bin, cmd.name, msg);
  };
  // Click's parser raises BadOptionUsage without a context: only the "Error:" line is printed.
  const bareFail = (msg: string): never => {
    throw new ClickUsageError(`Error: ${msg}`);
  };
  const byFlag = new Map<string, OptionDef | null>([[HELP_FLAG, null]]);
  for (const o of cmd.options) for (const f of [...o.flags, ...(o.hiddenFlags ?? [])]) byFlag.set(f, o);
  const publicFlags = [...cmd.options.flatMap((o) => o.flags), HELP_FLAG];
  const given = new Map<OptionDef, string | true>();
  const extra: string[] = [];
  let help = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      extra.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg.length === 1) {
      extra.push(arg);
      continue;
    }
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = eq >= 0 ? arg.slice(0, eq) : arg;
    const explicit = eq >= 0 ? arg.slice(eq + 1) : undefined;
    if (!byFlag.has(flag)) {
      if (!arg.startsWith('--')) fail(`No such option ${quote(arg.slice(0, 2))}.`);
      fail(`No such option ${quote(flag)}.${suggestion(flag, publicFlags)}`);
    }
    const o = byFlag.get(flag)!;
    if (o === null || o.type === 'flag') {
      if (explicit !== undefined) bareFail(`Option ${quote(flag)} does not take a value.`);
      if (o === null) help = true;
      else given.set(o, true);
      continue;
    }
    let value = explicit;
    if (value === undefined) {
      if (i + 1 >= args.length) bareFail(`Option ${quote(flag)} requires an argument.`);
      value = args[++i]!;
    }
    given.set(o, value);
  }
  if (help) return { help: true };
  const order = [...given.keys(), ...cmd.options.filter((o) => !given.has(o))];
  const opts: Record<string, unknown> = {};
  for (const o of order) {
    const raw = given.get(o);
    let value: unknown;
    if (raw === undefined) {
      if (o.required) fail(`Missing option ${optionHint(o)}.`);
      // A copy: a default list stored by one command must not be the one the next command gets.
      value = o.default !== undefined ? detached(o.default) : o.type === 'flag' ? false : null;
    } else {
      try {
        value = raw === true ? true : convertType(o, raw);
      } catch (e) {
        if (e instanceof BadParameter) fail(`Invalid value for ${optionHint(o)}: ${e.message}`);
        throw e;
      }
    }
    opts[o.name] = value;
  }
  if (extra.length > 0) {
    const s = extra.length === 1 ? '' : 's';
    fail(`Got unexpected extra argument${s} (${extra.join(' ')})`);
  }
  // `convert` runs where the reference parses such values: first thing in the command body,
  // in declaration order, so Click's own errors above win.
  for (const o of cmd.options) {
    if (!o.convert || !given.has(o) || opts[o.name] === null) continue;
    try {
      opts[o.name] = o.convert(opts[o.name]);
    } catch (e) {
      if (e instanceof BadParameter) fail(`Invalid value: ${e.message}`);
      throw e;
    }
  }
  return { help: false, opts };
}

/** Resolves the subcommand; throws ClickUsageError for unknown commands and group options. */
export function resolveCommand(app: AppDef, name: string, builtins: readonly string[]): string {
  if (name.startsWith('-') && name.length > 1) {
    const flag = name.includes('=') && name.startsWith('--') ? name.slice(0, name.indexOf('=')) : name;
    const shown = name.startsWith('--') ? flag : name.slice(0, 2);
    const hint = name.startsWith('--') ? suggestion(flag, [HELP_FLAG]) : '';
    throw usageError(app.cli, null, `No such option ${quote(shown)}.${hint}`);
  }
  const all = [...app.commands.map((c) => c.name), ...builtins];
  if (!all.includes(name)) {
    const suggestible = [...app.commands.filter((c) => !c.extension).map((c) => c.name), ...builtins];
    throw usageError(app.cli, null, `No such command ${quote(name)}.${suggestion(name, suggestible)}`);
  }
  return name;
}

function metavar(o: OptionDef): string {
  return o.type === 'flag' ? '' : o.type === 'integer' ? ' INTEGER' : o.type === 'float' ? ' FLOAT' : ' TEXT';
}

function table(rows: Array<[string, string]>): string {
  const width = Math.min(30, Math.max(...rows.map(([l]) => l.length)));
  return rows
    .map(([l, r]) => (l.length > width ? `  ${l}\n  ${' '.repeat(width)}  ${r}` : `  ${l.padEnd(width)}  ${r}`).trimEnd())
    .join('\n');
}

const indentText = (text: string): string =>
  text
    .trim()
    .split('\n')
    .map((l) => (l.trim() ? `  ${l.trim()}` : ''))
    .join('\n');

/** First sentence of a docstring, as Click's short help. */
export function shortHelp(text: string): string {
  const para = (text.trim().split(/\n\s*\n/)[0] ?? '').replace(/\s+/g, ' ');
  const m = /^(.*?\.)(\s|$)/.exec(para);
  return m ? m[1]! : para;
}

export function commandHelp(bin: string, cmd: CommandDef): string {
  const rows: Array<[string, string]> = cmd.options.map((o) => {
    const req = o.required ? '  [required]' : '';
    return [`${o.flags.join(', ')}${metavar(o)}`, `${o.help ?? ''}${req}`.trim()];
  });
  rows.push([HELP_FLAG, 'Show this message and exit.']);
  return `Usage: ${bin} ${cmd.name} [OPTIONS]\n\n${indentText(cmd.help)}\n\nOptions:\n${table(rows)}\n`;
}

export function groupHelp(app: AppDef, builtins: ReadonlyArray<[string, string]>): string {
  const cmds: Array<[string, string]> = [
    ...app.commands.filter((c) => !c.hidden).map((c): [string, string] => [c.name, shortHelp(c.help)]),
    ...builtins,
  ].sort((a, b) => (a[0] < b[0] ? -1 : 1));
  return (
    `Usage: ${app.cli} [OPTIONS] COMMAND [ARGS]...\n\n${indentText(app.help)}\n\n` +
    `Options:\n${table([[HELP_FLAG, 'Show this message and exit.']])}\n\nCommands:\n${table(cmds)}\n`
  );
}
