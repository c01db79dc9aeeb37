// The judgments.jsonl record of one judged turn (docs/judge.md, "Records").
import { PyFloat } from '../contract/pyjson.js';
import { pyStr } from './pystr.js';

export interface JudgedEventSummary {
  id: string;
  tool: string;
  /** Non-primitive values stringified the Python way. */
  args: Record<string, unknown>;
  /** Strings cut to 80 characters, other values as they are. */
  args_summary: Record<string, unknown>;
}

export interface MatchDetail {
  oracle_id: string;
  oracle_tool: string;
  matched: boolean;
  reason: string;
  /** Raw LLM text of the last failed or inconclusive soft check ("" when none). */
  judge_output: string;
}

export interface JudgmentRecord {
  turn: number;
  success: boolean;
  failure_reason: string | null;
  agent_events: JudgedEventSummary[];
  oracle_events: JudgedEventSummary[];
  /** null when the count check failed before matching. */
  match_details: MatchDetail[] | null;
  id_mapping: Record<string, string> | null;
}

const isPrimitive = (v: unknown): boolean =>
  v === null || v === undefined || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v instanceof PyFloat;

export function summarizeEvent(id: string, tool: string, args: Record<string, unknown>): JudgedEventSummary {
  const full: Record<string, unknown> = {};
  const summary: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) {
    full[k] = isPrimitive(v) ? (v ?? null) : pyStr(v);
    summary[k] = typeof v === 'string' ? [...v].slice(0, 80).join('') : (v ?? null);
  }
  return { id, tool, args: full, args_summary: summary };
}
