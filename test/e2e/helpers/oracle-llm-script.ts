// Turns a golden oracle event log into what a scripted LLM says to play it: one tool call per
// agent action (a shell command line over the app CLIs, or the matching function tool), then
// the oracle's reply as the final text; per turn for multi-turn scenarios (oracleTurns).
import { readFileSync } from 'node:fs';
import { cliSpecs, type CliCommandSpec } from '@gaia2/contract/lib/apps';
import { entryForAppName } from '@gaia2/contract/lib/apps/registry';
import { functionName } from '../../../agent-image/src/agents/default/function-tools.js';
import { SHELL_TOOL_NAME } from '../../../agent-image/src/agents/default/shell-tool.js';
import { isEnvLine, isReplyLine, parseEventsJsonl, SEND_MESSAGE_TO_AGENT } from '@gaia2/contract';
import { call, say, type FakeReply } from '../../helpers/fake-llm/index.js';

export type ToolMode = 'shell' | 'functions';

export interface OracleAction {
  cli: string;
  command: CliCommandSpec;
  args: Record<string, unknown>;
}

const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** One turn of the oracle: its actions, then its reply. */
export interface OracleTurn {
  actions: OracleAction[];
  reply: string;
}

/** The oracle's turns, from a golden `*.events.jsonl` (cut after each reply). */
export function oracleTurns(eventsFile: string): OracleTurn[] {
  const events = parseEventsJsonl(readFileSync(eventsFile, 'utf8'));
  const specs = cliSpecs();
  const turns: OracleTurn[] = [];
  let actions: OracleAction[] = [];
  for (const e of events) {
    if (isEnvLine(e) || e.fn === SEND_MESSAGE_TO_AGENT) continue;
    if (isReplyLine(e)) {
      turns.push({ actions, reply: String((e.args as { content?: unknown }).content ?? '') });
      actions = [];
      continue;
    }
    const cli = entryForAppName(e.app)?.cli;
    const command = specs.find((s) => s.cli === cli)?.commands.find((c) => c.fn === e.fn);
    if (!cli || !command) throw new Error(`${eventsFile}: no CLI command for ${e.app}.${e.fn}`);
    actions.push({ cli, command, args: (e.args ?? {}) as Record<string, unknown> });
  }
  if (turns.length === 0) throw new Error(`${eventsFile}: the oracle never replies`);
  return turns;
}

/** The oracle's actions and final reply, from a golden `*.events.jsonl` of a single-turn scenario. */
export function oraclePlay(eventsFile: string): OracleTurn {
  const turns = oracleTurns(eventsFile);
  if (turns.length > 1) throw new Error(`${eventsFile}: more than one reply; only single-turn oracles can be scripted`);
  return turns[0]!;
}

/** The command line an agent would type for an action. */
export function shellLine(a: OracleAction): string {
  const parts = [a.cli, a.command.name];
  for (const o of a.command.options) {
    const v = a.args[o.name];
    if (v === undefined || v === null) continue;
    if (o.type === 'flag') {
      if (v === true) parts.push(o.flag);
      continue;
    }
    parts.push(o.flag, shellQuote(typeof v === 'object' ? JSON.stringify(v) : String(v)));
  }
  return parts.join(' ');
}

/** One model answer per action, then the reply. */
export function scriptFor(play: { actions: OracleAction[]; reply: string }, mode: ToolMode): FakeReply[] {
  return [
    ...play.actions.map((a) =>
      mode === 'shell' ? call(SHELL_TOOL_NAME, { command: shellLine(a) }) : call(functionName(a.cli, a.command.name), a.args),
    ),
    say(play.reply),
  ];
}
