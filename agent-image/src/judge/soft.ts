// Soft (LLM) comparison of the llm_checker arguments (docs/judge.md, "Soft checks").
import type { UserDetails } from '../scenario/index.js';
import type { JudgeLlm } from './llm.js';
import { normalizeArg } from './normalize.js';
import { PROMPTS, parseVerdict, renderTemplate } from './prompts.js';
import type { PromptSet } from './prompt-sets.js';
import { pyRepr, pyStr, pyStrip } from './pystr.js';
import type { SoftCheckerName } from './registry.js';

export interface SoftContext {
  llm: JudgeLlm | null;
  tool: string;
  /** Tasks of turns 0..current. */
  tasks: string[];
  userDetails: UserDetails | null;
  oracleEventTime: number | null;
  startTime: number;
  /** Raw text of each checker's last LLM reply, kept across calls like the reference. */
  lastResponses: Map<SoftCheckerName, string>;
  /** The chosen prompt set (prompt-sets.ts); absent = the default prompts. */
  prompts?: PromptSet;
}

export interface SoftResult {
  ok: boolean | null;
  rationale: string;
  judgeOutput: string;
}

const PLACEHOLDERS = ["[User's Name]", '[User Name]', '[User]', '[Your Name]', '[My Name]', 'Best regards,\nYour Name', 'Best,\nYour Name'];
const HOME_WORDS = new Set(['home', 'my place', 'my address']);
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** "k: v" lines, Python str() values. */
export const describeArgs = (args: Record<string, unknown>): string =>
  pyStrip(
    Object.entries(args)
      .map(([k, v]) => `${k}: ${pyStr(v)}`)
      .join('\n'),
  );

/** Every selected oracle key present in the agent args with an equal normalised value. */
export function normalisedEqual(agent: Record<string, unknown>, oracle: Record<string, unknown>): boolean {
  return Object.keys(oracle).every((k) => k in agent && normalizeArg(agent[k]) === normalizeArg(oracle[k]));
}

export function placeholderCheck(agent: Record<string, unknown>): boolean {
  const text = Object.values(agent).map(pyStr).join(' ').toLowerCase();
  return !PLACEHOLDERS.some((p) => text.includes(p.toLowerCase()));
}

/** "YYYY-MM-DD Weekday" (UTC) of the oracle time, else of the start time, else "". */
export function todayDate(oracleTime: number | null, startTime: number): string {
  const t = oracleTime !== null && oracleTime > 0 ? oracleTime : startTime;
  if (!(t > 0)) return '';
  const d = new Date(t * 1000);
  return `${d.toISOString().slice(0, 10)} ${WEEKDAYS[d.getUTCDay()]}`;
}

function withHomeAddress(args: Record<string, unknown>, address: string): Record<string, unknown> {
  const out = { ...args };
  if (!address) return out;
  for (const k of ['start_location', 'end_location']) {
    if (HOME_WORDS.has(pyStrip(pyStr(out[k] ?? '')).toLowerCase())) out[k] = address;
  }
  return out;
}

async function askChecker(ctx: SoftContext, name: SoftCheckerName, vars: Record<string, string>): Promise<boolean | null> {
  const spec = (ctx.prompts ?? PROMPTS)[name];
  if (!spec || !ctx.llm) return null;
  const reply = await ctx.llm.complete(renderTemplate(spec.system, vars), renderTemplate(spec.user, vars), ctx.tasks.join('\n').trim());
  ctx.lastResponses.set(name, reply ?? '');
  return parseVerdict(reply, spec);
}

/**
 * Runs the tool's soft checkers in order on the selected args. Shortcut: normalised
 * equality passes without a call. No LLM: pass ("no LLM, hard-only"), placeholder scan
 * included, exactly as the reference does.
 */
export async function softCompare(
  agent: Record<string, unknown>,
  oracle: Record<string, unknown>,
  checkers: readonly SoftCheckerName[],
  ctx: SoftContext,
): Promise<SoftResult> {
  if (checkers.length === 0) return { ok: true, rationale: '', judgeOutput: '' };
  if (normalisedEqual(agent, oracle)) return { ok: true, rationale: '', judgeOutput: '' };
  if (!ctx.llm) return { ok: true, rationale: 'no LLM, hard-only', judgeOutput: '' };

  const userName = ctx.userDetails ? `${ctx.userDetails.first_name} ${ctx.userDetails.last_name}` : '';
  const userAddress = ctx.userDetails ? ctx.userDetails.address : '';
  const subtask = ''; // the reference never runs its subtask extractor (docs/judge.md, "Soft checks")
  const base = {
    agent_action_call: describeArgs(agent),
    oracle_action_call: describeArgs(oracle),
    today_date: todayDate(ctx.oracleEventTime, ctx.startTime),
    user_name: userName,
    user_address: userAddress,
    tool_name: ctx.tool,
    task: subtask,
  };

  for (const name of checkers) {
    let ok: boolean | null;
    if (name === 'placeholder_checker') ok = placeholderCheck(agent);
    else if (name === 'cab_checker') {
      ok = await askChecker(ctx, name, {
        ...base,
        agent_action_call: describeArgs(withHomeAddress(agent, userAddress)),
        oracle_action_call: describeArgs(withHomeAddress(oracle, userAddress)),
      });
    } else ok = await askChecker(ctx, name, base);

    const judgeOutput = name === 'placeholder_checker' ? '' : ctx.lastResponses.get(name) ?? '';
    if (ok === null) return { ok: null, rationale: `${name}:inconclusive`, judgeOutput };
    if (!ok) return { ok: false, rationale: `${name} (agent_args=${pyRepr(agent)})`, judgeOutput };
  }
  return { ok: true, rationale: '', judgeOutput: '' };
}
