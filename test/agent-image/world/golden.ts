// Golden corpus access for the daemon tests: scenarios, the reference oracle logs, and the
// comparison of agent lines "as multisets of (app, fn, args), generated ids aside".
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isEnvLine, isReplyLine, parseEventsJsonl, type EventLine } from '../../../agent-image/src/contract/events.js';
import { parsePyJson, pyDumps } from '../../../agent-image/src/contract/pyjson.js';

export const GOLDEN = join(import.meta.dirname, '../../fixtures/golden');

export interface GoldenCase {
  scenario: string;
  case: string;
  events: string;
  split: string;
  expected: { success: boolean; status: string; nb_turns: number };
}

export function goldenCases(): GoldenCase[] {
  return readFileSync(join(GOLDEN, 'cases.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as GoldenCase);
}

export const oracleCases = (): GoldenCase[] => goldenCases().filter((c) => c.case === 'oracle');

export const readGolden = (rel: string): string => readFileSync(join(GOLDEN, rel), 'utf8');

const HEX32 = /\b[0-9a-f]{32}\b/g;

/** Canonical text of an agent line: app, fn and args with sorted keys; ids created during the
 *  run (32-hex values absent from the scenario) masked. */
export function canonicalAction(l: EventLine, knownIds: ReadonlySet<string>): string {
  const sortKeys = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sortKeys)
      : v && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)).map(([k, x]) => [k, sortKeys(x)]))
        : v;
  const text = JSON.stringify([l.app, l.fn, sortKeys(l.args)]);
  return text.replace(HEX32, (m) => (knownIds.has(m) ? m : '<id>'));
}

export const scenarioIds = (scenarioText: string): Set<string> => new Set(scenarioText.match(HEX32) ?? []);

/** Agent lines (no ENV, no deliveries to the agent) per turn, cut after each reply. */
export function agentTurns(lines: readonly EventLine[]): EventLine[][] {
  const turns: EventLine[][] = [[]];
  for (const l of lines) {
    if (isEnvLine(l) || l.fn === 'send_message_to_agent') continue;
    turns[turns.length - 1]!.push(l);
    if (isReplyLine(l)) turns.push([]);
  }
  if (turns[turns.length - 1]!.length === 0) turns.pop();
  return turns;
}

/** Per turn, the sorted canonical actions (a multiset as a sorted list). */
export function turnMultisets(lines: readonly EventLine[], knownIds: ReadonlySet<string>): string[][] {
  return agentTurns(lines).map((t) => t.map((l) => canonicalAction(l, knownIds)).sort());
}

export const parseLog = (text: string): EventLine[] => parseEventsJsonl(text);

/**
 * ENV lines as Python would print their app, fn and args (float literals kept: `15.0` is not
 * `15`), generated ids masked; sorted, as ENV events due together may fire in either order.
 */
export function envArgTexts(eventsText: string, knownIds: ReadonlySet<string>): string[] {
  return parseEventsJsonl(eventsText, parsePyJson)
    .filter((l) => isEnvLine(l))
    .map((l) => pyDumps([l.app, l.fn, l.args]).replace(HEX32, (m) => (knownIds.has(m) ? m : '<id>')))
    .sort();
}
