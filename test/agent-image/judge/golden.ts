// Shared helpers for the golden-corpus tests (test/fixtures/golden, README "Comparing verdicts").
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parsePyJson } from '../../../agent-image/src/contract/pyjson.js';
import type { EventLine } from '../../../agent-image/src/contract/events.js';

export const GOLDEN_DIR = join(import.meta.dirname, '../../fixtures/golden');

export interface GoldenTurn {
  turn: number;
  success: boolean;
  failure_reason: string | null;
  failure_reason_masked: string | null;
  match_details: Array<{ oracle_id: string; oracle_tool: string; matched: boolean; reason: string }> | null;
}
export interface GoldenCase {
  scenario: string;
  case: string;
  events: string;
  split: string;
  expected: {
    success: boolean;
    failure_reason: string;
    failure_reason_masked: string;
    status: string;
    nb_turns: number;
    turns: GoldenTurn[];
  };
  note: string;
}

export const goldenCases = (): GoldenCase[] =>
  readFileSync(join(GOLDEN_DIR, 'cases.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as GoldenCase);

/** Event lines parsed the way Python wrote them (floats keep their ".0"). */
export const readEventLines = (rel: string): EventLine[] =>
  readFileSync(join(GOLDEN_DIR, rel), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => parsePyJson(l) as EventLine);

const AGENT_ID = /(AGENT-[A-Za-z0-9_]+\.[A-Za-z0-9_]+-)[0-9a-f]{8}/g;
export const maskIds = (s: string | null): string | null => (s === null ? null : s.replace(AGENT_ID, '$1XXXXXXXX'));

/** Tool-count dict reprs compared as maps (their key order follows the reference's hash order). */
export function canonicalReason(s: string | null): string | null {
  const m = s === null ? null : /^Tool count mismatch: agent=(\{.*\}), oracle=(\{.*\})$/.exec(s);
  if (!m) return maskIds(s);
  const sortDict = (d: string) =>
    d
      .slice(1, -1)
      .split(', ')
      .filter(Boolean)
      .sort()
      .join(', ');
  return `Tool count mismatch: agent={${sortDict(m[1]!)}}, oracle={${sortDict(m[2]!)}}`;
}
