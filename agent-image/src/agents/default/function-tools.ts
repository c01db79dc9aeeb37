// `functions` mode: one function tool per app command, generated from the CLI definitions,
// so the model fills typed parameters instead of composing shell lines. Each call becomes
// the same argv the CLI would get and runs as an agent action through the daemon.
import { jsonSchema, tool, type Tool } from 'ai';
import type { CliCommandSpec, CliOptionSpec, CliSpec } from '../../apps/index.js';
import type { RenamedCommand } from '../../contract/agent-protocol.js';
import { formatOutcome } from './tool-output.js';

export interface CliRunResult {
  stdout: string;
  stderr: string;
  exit_code: number;
}

export type CliRunner = (argv: string[]) => Promise<CliRunResult>;

const JSON_TYPE: Record<CliOptionSpec['type'], string> = { text: 'string', integer: 'integer', float: 'number', flag: 'boolean' };

/** Provider-safe function name (letters, digits, underscores; ≤ 64 chars). */
export const functionName = (cli: string, command: string): string =>
  `${cli}__${command}`.replace(/[^A-Za-z0-9_]/g, '_').slice(0, 64);

function parameters(cmd: CliCommandSpec): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const o of cmd.options) {
    const help = o.help || o.flag;
    const def = o.default !== null && o.default !== undefined && o.type !== 'flag' ? ` (default: ${JSON.stringify(o.default)})` : '';
    properties[o.name] = { type: JSON_TYPE[o.type] ?? 'string', description: `${help}${def}` };
  }
  return {
    type: 'object',
    properties,
    required: cmd.options.filter((o) => o.required).map((o) => o.name),
    additionalProperties: false,
  };
}

/** The argv a call with these arguments stands for. Unknown arguments are reported, not dropped. */
export function argvFor(cli: string, cmd: CliCommandSpec, input: Record<string, unknown>): string[] {
  const argv = [cli, cmd.name];
  const known = new Set(cmd.options.map((o) => o.name));
  const unknown = Object.keys(input).filter((k) => !known.has(k));
  if (unknown.length > 0) throw new Error(`unknown parameter(s) for ${functionName(cli, cmd.name)}: ${unknown.join(', ')}`);
  for (const o of cmd.options) {
    const v = input[o.name];
    if (v === undefined || v === null) continue;
    if (o.type === 'flag') {
      if (v === true || v === 'true') argv.push(o.flag);
      continue;
    }
    argv.push(o.flag, typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
  return argv;
}

export interface FunctionToolsOptions {
  specs: CliSpec[];
  /** CLI names the scenario exposes (the daemon's welcome.tools). */
  visible: readonly string[];
  run: CliRunner;
  maxOutputChars: number;
}

export function createFunctionTools(opts: FunctionToolsOptions): Record<string, Tool> {
  const visible = new Set(opts.visible);
  const tools: Record<string, Tool> = {};
  for (const spec of opts.specs) {
    if (!visible.has(spec.cli)) continue;
    for (const cmd of spec.commands) {
      if (cmd.hidden) continue;
      tools[functionName(spec.cli, cmd.name)] = tool({
        description: `${spec.description} — ${cmd.help || cmd.name}`.slice(0, 1000),
        inputSchema: jsonSchema<Record<string, unknown>>(parameters(cmd) as any),
        execute: async (input) => {
          let argv: string[];
          try {
            argv = argvFor(spec.cli, cmd, (input ?? {}) as Record<string, unknown>);
          } catch (err) {
            return `Error: ${(err as Error).message}`;
          }
          const r = await opts.run(argv);
          return formatOutcome({ stdout: r.stdout, stderr: r.stderr, exitCode: r.exit_code }, opts.maxOutputChars);
        },
      });
    }
  }
  return tools;
}

export const TIME_TOOL_NAME = 'current_time';

/** Functions mode has no `date`: this tool tells the simulated time instead. */
export function createTimeTool(now: () => Promise<string>): Tool {
  return tool({
    description: 'The current date and time in the user\'s world (UTC, "YYYY-MM-DD HH:MM:SS").',
    inputSchema: jsonSchema<Record<string, never>>({ type: 'object', properties: {}, additionalProperties: false }),
    execute: async () => now(),
  });
}

/** The catalogue as the daemon shows it (Noise phase: renamed or re-described commands). */
export function withRenames(specs: CliSpec[], renamed: readonly RenamedCommand[] | undefined): CliSpec[] {
  if (!renamed?.length) return specs;
  const by = new Map(renamed.map((r) => [`${r.cli} ${r.fn}`, r]));
  return specs.map((s) => ({
    ...s,
    commands: s.commands.map((c) => {
      const r = by.get(`${s.cli} ${c.fn}`);
      return r ? { ...c, name: r.name, help: r.help } : c;
    }),
  }));
}
