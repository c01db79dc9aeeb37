// Offline replay of the reference daemon's judging over a whole events.jsonl (golden
// README "How the verdicts were obtained"; docs/daemon.md, "Turns" and "Lines and statuses"): lines are
// taken in the order the daemon read them; the k-th reply fires condition k, which judges
// turn k-1 from the sorted slices; a rejected turn stops everything ("stopped"); once
// nb_turns replies are in and every condition has fired, the final turn is judged.
// Lines after the terminal point are never read, as in the reference.
import { isEnvLine, isReplyLine, type EventLine } from '../contract/events.js';
import type { ErrorKind } from '../contract/result.js';
import type { LoadedScenario } from '../scenario/index.js';
import { completedEventFromLine, sliceTurns, type CompletedEvent } from './events.js';
import { Judge, type JudgeOptions, type TurnVerdict } from './judge.js';
import { JudgeError } from './llm.js';
import type { JudgmentRecord } from './record.js';

export interface EventLogVerdict {
  /** null when no verdict could be reached (see status/error_kind). */
  success: boolean | null;
  /** The failing turn's reason; "" on success. */
  failure_reason: string;
  status: 'complete' | 'stopped' | 'error';
  nb_turns: number;
  judge_mode: 'llm' | 'hard-only';
  /** judgments.jsonl records, one per judged turn, in order. */
  turns: JudgmentRecord[];
  /** Verdict of every judge call (auto-passes included), with the id mapping. */
  verdicts: TurnVerdict[];
  error_kind?: ErrorKind;
  error?: string;
}

/**
 * Replays the reference daemon's judging over a log. Agent lines without event_id get
 * deterministic ids. Judge errors (provider failures, bugs) give status "error" with an
 * error_kind, never a verdict.
 */
export async function judgeEventLog(
  scenario: LoadedScenario,
  lines: readonly EventLine[],
  opts: JudgeOptions = {},
): Promise<EventLogVerdict> {
  const judge = new Judge(scenario, opts);
  const nbTurns = scenario.nbTurns;
  const out: EventLogVerdict = {
    success: null,
    failure_reason: '',
    status: 'error',
    nb_turns: nbTurns,
    judge_mode: judge.mode,
    turns: [],
    verdicts: [],
  };
  const completed: CompletedEvent[] = [];
  const position = new Map<string, number>();
  let replies = 0;
  let nextCondition = 1; // condition k judges turn k-1; conditions exist for k = 1..nbTurns-1

  const judgeTurn = async (turn: number): Promise<TurnVerdict> => {
    const v = await judge.judgeTurn(turn, sliceTurns(completed)[turn] ?? []);
    out.verdicts.push(v);
    if (v.record) out.turns.push(v.record);
    return v;
  };
  const finish = (v: TurnVerdict | null): EventLogVerdict => {
    out.success = v ? v.success : true;
    out.failure_reason = v?.failure_reason ?? '';
    out.status = v && !v.success ? 'stopped' : 'complete';
    return out;
  };

  try {
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      const ev = completedEventFromLine(line, i);
      // Same id again (an ENV line re-logged): the newer data replaces the old in place.
      const at = position.get(ev.id);
      if (at === undefined) {
        position.set(ev.id, completed.length);
        completed.push(ev);
      } else completed[at] = ev;
      if (isEnvLine(line)) {
        judge.envReturnValues.set(ev.id, ev.ret);
        continue;
      }
      if (!isReplyLine(line)) continue;
      replies++;
      while (nextCondition < nbTurns && replies >= nextCondition) {
        const v = await judgeTurn(nextCondition - 1);
        if (!v.success) return finish(v);
        nextCondition++;
      }
      if (replies >= nbTurns && nextCondition >= nbTurns) {
        if (scenario.oracleEvents.length === 0) return finish(null); // the reference builds no judge
        return finish(await judgeTurn(nbTurns - 1));
      }
    }
  } catch (err) {
    out.success = null;
    out.status = 'error';
    out.error_kind = err instanceof JudgeError ? err.kind : 'judge_error';
    out.error = err instanceof Error ? err.message : String(err);
    return out;
  }
  out.error_kind = 'no_judgment';
  out.error = `the log ends after ${replies} repl${replies === 1 ? 'y' : 'ies'} to the user; the scenario has ${nbTurns} turn(s), so the reference daemon never reached a verdict`;
  return out;
}
