// judgments.jsonl records (docs/judge.md, "Records") → per-turn verdicts with an
// agent-vs-oracle comparison for every oracle event the judge looked at.
import { asArr, asObj, asStr, isObj, type Obj } from '../../trace/json-util.js';
import { isEnvLine, isReplyLine, isUserLine, type EventLine } from '@gaia2/contract';
import type { OracleEvent } from './oracle.js';
import type { Comparison, TimelineItem } from './types.js';

type Verdict = Extract<TimelineItem, { k: 'verdict' }>;

function eventsById(list: unknown): Map<string, Obj> {
  const m = new Map<string, Obj>();
  for (const e of asArr(list)) {
    const ev = asObj(e);
    if (ev.id) m.set(asStr(ev.id), ev);
  }
  return m;
}

function comparisonsOf(rec: Obj, oracle: Map<string, OracleEvent>): Comparison[] {
  const oracleEvents = eventsById(rec.oracle_events);
  const agentEvents = eventsById(rec.agent_events);
  const agentFor = new Map<string, string>();
  for (const [agentId, oracleId] of Object.entries(asObj(rec.id_mapping))) agentFor.set(asStr(oracleId), agentId);

  const details = asArr(rec.match_details).map(asObj);
  const rows: Obj[] = details.length
    ? details
    : [...oracleEvents.values()].map((o) => ({ oracle_id: o.id, oracle_tool: o.tool, matched: agentFor.has(asStr(o.id)) }));
  return rows.map((d) => {
    const oracleId = asStr(d.oracle_id);
    const fromJudge = oracleEvents.get(oracleId);
    const fromScenario = oracle.get(oracleId);
    const agent = agentEvents.get(agentFor.get(oracleId) ?? '');
    return {
      oracleId,
      oracleTool: asStr(d.oracle_tool) || asStr(fromJudge?.tool) || fromScenario?.tool || '',
      matched: d.matched === true,
      reason: asStr(d.reason),
      oracleArgs: isObj(fromJudge?.args) ? fromJudge.args : (fromScenario?.args ?? null),
      agentTool: asStr(agent?.tool),
      agentArgs: isObj(agent?.args) ? agent.args : null,
      judgeOutput: asStr(d.judge_output),
    };
  });
}

/** Agent write actions of each turn (a turn ends with the agent's reply to the user). */
function writesByTurn(events: EventLine[]): EventLine[][] {
  const turns: EventLine[][] = [[]];
  for (const e of events) {
    if (e.w === true && !isEnvLine(e) && !isUserLine(e)) turns[turns.length - 1]!.push(e);
    if (isReplyLine(e)) turns.push([]);
  }
  return turns;
}

/**
 * Judge records of the reference carry no agent events: show, for each oracle event, the
 * agent's first unused write of the same tool in that turn (what the judge compared it with,
 * or the closest candidate when it did not match).
 */
function fillFromEvents(v: Verdict, writes: EventLine[]): void {
  const used = new Set<EventLine>();
  for (const c of v.comparisons) {
    if (c.agentArgs) continue;
    const e = writes.find((w) => !used.has(w) && `${w.app}__${w.fn}` === c.oracleTool);
    if (!e) continue;
    used.add(e);
    c.agentTool = c.matched ? `${e.app}__${e.fn}` : `${e.app}__${e.fn} (closest, not matched)`;
    c.agentArgs = isObj(e.args) ? e.args : { value: e.args };
  }
}

/** One verdict per judged turn, in turn order; records without a numeric turn are skipped. */
export function verdictsOf(records: Obj[], oracle: OracleEvent[], events: EventLine[] = []): Verdict[] {
  const byId = new Map(oracle.map((o) => [o.id, o]));
  const turns = writesByTurn(events);
  const out: Verdict[] = [];
  for (const rec of records) {
    const turn = typeof rec.turn === 'number' ? rec.turn : Number.NaN;
    if (!Number.isInteger(turn)) continue;
    out.push({
      k: 'verdict',
      turn,
      success: rec.success === true,
      reason: asStr(rec.failure_reason),
      comparisons: comparisonsOf(rec, byId),
    });
    fillFromEvents(out[out.length - 1]!, turns[turn] ?? []);
  }
  return out.sort((a, b) => a.turn - b.turn);
}
