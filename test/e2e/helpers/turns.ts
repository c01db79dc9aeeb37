// Compares event logs the way issue C's acceptance does: per turn, the agent's lines as a
// multiset of (app, fn, args), with generated ids, timestamps and the order of simultaneous
// actions set aside.
import { isEnvLine, isReplyLine, SEND_MESSAGE_TO_AGENT, type EventLine } from '@gaia2/contract';

const HEX_ID = /\b[0-9a-f]{32}\b/g;

export function agentTurns(events: EventLine[]): string[][] {
  const turns: string[][] = [[]];
  for (const e of events) {
    if (isEnvLine(e) || e.fn === SEND_MESSAGE_TO_AGENT) continue;
    turns[turns.length - 1]!.push(JSON.stringify([e.app, e.fn, sortKeys(e.args)]).replace(HEX_ID, '<ID>'));
    if (isReplyLine(e)) turns.push([]);
  }
  if (turns[turns.length - 1]!.length === 0) turns.pop();
  return turns.map((t) => t.sort());
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') {
    return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]));
  }
  return v;
}
