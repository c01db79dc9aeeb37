// Errors counted by evidence (docs/agents.md, "When the program fails"). A turn whose agent
// program failed on its own is a judged reply (daemon status `agent_failures`); before the run
// stands, the runner looks at the model gateway's record of the container for that turn's
// window — from the end of the previous turn (events.jsonl `wall_t` of its reply; the
// container's start for turn 1), which covers the delivery of the turn's message and the
// program's start-up, to the failure (its reply line's `wall_t`). An agent call in that window that the provider refused (final
// HTTP status ≥ 400 after the gateway's retries), that got no answer, or that broke off (timeout,
// reset: the record's `error`) makes the run an infrastructure error, `provider_error`: out of
// every denominator and rerun by --retry. Otherwise the run stands as judged and result.json
// says the agent's program failed (`agent_failed`). Without a record there is no evidence: the
// run stands, and `agent_failed` says that nothing was checked.
import {
  AUI_APP,
  SEND_MESSAGE_TO_USER,
  type AgentFailedRecord,
  type AgentFailure,
  type EventLine,
  type ScenarioResult,
} from '@gaia2/contract';

/**
 * Slack on both ends of a window, in seconds. The daemon's and the gateway's stamps come from
 * the same clock on a local engine; on a remote engine they are two machines' clocks, as good
 * as their time synchronisation. Erring wide makes a run an infrastructure error (rerun), never
 * a judged failure that the provider caused.
 */
export const WINDOW_SLACK_S = 2;

/** Calls named one by one in the error message; the rest are counted. */
const CALLS_NAMED = 5;

/** The fields of a model_traffic.jsonl line (runner/src/gateway/record.ts) this reads. */
interface RecordedCall {
  seq: number;
  role: string;
  t: number;
  t_end: number;
  provider: string;
  model: string | null;
  http_status: number;
  attempt: number;
  error?: string;
  /** The gateway gave the call up when the run ended (gateway/record.ts TrafficLine). */
  abandoned?: true;
}

/** A failed agent call inside a failed turn's window. */
export interface FailedCall {
  turn: number;
  seq: number;
  provider: string;
  model: string | null;
  http_status: number;
  attempts: number;
  error?: string;
}

export interface TurnWindow {
  turn: number;
  /** Unix seconds; -Infinity when the turn's start is unknown (from the container's start). */
  start: number;
  end: number;
}

/** What the runner has to weigh a run's failed turns against. */
export type FailureEvidence =
  | { record: { traffic: string; events: string } }
  /** No record: why (direct mode, no output directory). */
  | { none: string };

/** The daemon's `agent_failures` of a result's final status (malformed entries dropped). */
export function agentFailuresOf(r: Pick<ScenarioResult, 'daemon_status'>): AgentFailure[] {
  const list = (r.daemon_status as { agent_failures?: unknown } | undefined)?.agent_failures;
  if (!Array.isArray(list)) return [];
  return list.filter(
    (f): f is AgentFailure => !!f && typeof f === 'object' && Number.isInteger((f as AgentFailure).turn) && typeof (f as AgentFailure).wall_t === 'number',
  );
}

/** The wall clock (`wall_t`) of each reply line of events.jsonl, in order; other lines are not parsed. */
function replyWalls(events: string): Array<number | null> {
  const out: Array<number | null> = [];
  for (const line of events.split('\n')) {
    if (!line.includes(SEND_MESSAGE_TO_USER)) continue;
    try {
      const e = JSON.parse(line) as EventLine;
      if (e && e.app === AUI_APP && e.fn === SEND_MESSAGE_TO_USER) out.push(typeof e.wall_t === 'number' ? e.wall_t : null);
    } catch {
      // a torn or malformed line is no reply
    }
  }
  return out;
}

/**
 * Each failed turn's window: from the end of the previous turn (its reply line; the container's
 * start for turn 1) to the failure. It holds the delivery of the turn's message to the failure,
 * and also what the program did to get ready for the turn: its start-up before the first message
 * (a program that stays up starts before it) or a restart after a previous turn. A provider
 * refusing the program then fails the turn as surely as one refusing it mid-turn.
 */
export function turnWindows(failures: readonly AgentFailure[], events: string): TurnWindow[] {
  const walls = replyWalls(events);
  return failures.map((f) => ({ turn: f.turn, start: (f.turn >= 2 ? walls[f.turn - 2] : null) ?? -Infinity, end: f.wall_t }));
}

function recordedCalls(traffic: string): RecordedCall[] {
  const out: RecordedCall[] = [];
  for (const line of traffic.split('\n')) {
    if (!line.trim()) continue;
    try {
      const c = JSON.parse(line) as RecordedCall;
      if (c && typeof c.t === 'number' && typeof c.http_status === 'number') out.push(c);
    } catch {
      // a torn line is not a call
    }
  }
  return out;
}

/**
 * Refused after the gateway's retries, never answered, or broken off (timeout, reset). A call
 * the gateway abandoned because the run had ended (`abandoned`) is the harness's doing, no failure.
 */
const failedCall = (c: RecordedCall): boolean => !c.abandoned && (c.http_status >= 400 || c.http_status === 0 || typeof c.error === 'string');

/** The agent's failed calls that overlap a failed turn's window (each call once, with its first turn). */
export function failedCallsIn(traffic: string, windows: readonly TurnWindow[]): FailedCall[] {
  const out: FailedCall[] = [];
  for (const c of recordedCalls(traffic)) {
    if (c.role !== 'agent' || !failedCall(c)) continue;
    const end = typeof c.t_end === 'number' ? c.t_end : c.t;
    const w = windows.find((x) => c.t <= x.end + WINDOW_SLACK_S && end >= x.start - WINDOW_SLACK_S);
    if (!w) continue;
    out.push({
      turn: w.turn,
      seq: c.seq,
      provider: c.provider,
      model: c.model ?? null,
      http_status: c.http_status,
      attempts: c.attempt,
      ...(c.error ? { error: c.error } : {}),
    });
  }
  return out;
}

function describeCall(c: FailedCall): string {
  const what = c.http_status > 0 ? `HTTP ${c.http_status}` : 'no answer';
  const tries = `after ${c.attempts} attempt${c.attempts === 1 ? '' : 's'}`;
  const err = c.error ? `: ${c.error.slice(0, 160)}` : '';
  return `#${c.seq} to ${c.provider}${c.model ? ` (${c.model})` : ''}: ${what} ${tries}${err}`;
}

const turnList = (turns: readonly number[]): string => `turn${turns.length === 1 ? '' : 's'} ${turns.join(', ')}`;

/** The message of a provider_error found this way: which turns failed and which calls. */
export function providerFailureMessage(failures: readonly AgentFailure[], calls: readonly FailedCall[]): string {
  const turns = [...new Set(calls.map((c) => c.turn))];
  const named = calls.slice(0, CALLS_NAMED).map(describeCall).join('; ');
  const more = calls.length > CALLS_NAMED ? `; and ${calls.length - CALLS_NAMED} more` : '';
  const text = failures.find((f) => f.turn === turns[0])?.text ?? '';
  return (
    `the agent's program failed ${turnList(turns)} while its provider failed: the model gateway's record shows ` +
    `${calls.length} failed agent call${calls.length === 1 ? '' : 's'} in ${turns.length === 1 ? 'that turn' : 'those turns'} (${named}${more})` +
    (text ? `; the program said: ${text.slice(0, 200)}` : '')
  );
}

/**
 * Weighs a finished run's failed turns. A run without `agent_failures`, one that ended in an
 * error anyway, or one ended by a stuck loop (the agent's own repetition, read from the world's
 * log: ./stuck-loop.ts) or by its budget (plan/budget.ts), is returned as it is. A judged run either becomes `provider_error` (the record
 * shows the provider failing in a failed turn) or keeps its verdict with `agent_failed`.
 */
export function weighAgentFailures(result: ScenarioResult, evidence: FailureEvidence): ScenarioResult {
  const failures = agentFailuresOf(result);
  if (failures.length === 0 || result.status === 'error' || result.success === null || result.stuck_loop || result.budget_exceeded) return result;
  const turns = failures.map((f) => f.turn);
  const text = failures[0]!.text;
  if ('none' in evidence) {
    const note = `the agent's program failed ${turnList(turns)}; ${evidence.none}, so whether its provider failed cannot be told: the run stands as judged`;
    return { ...result, agent_failed: { turns, text, evidence: 'none', note } satisfies AgentFailedRecord };
  }
  const calls = failedCallsIn(evidence.record.traffic, turnWindows(failures, evidence.record.events));
  if (calls.length === 0) {
    const note = `the agent's program failed ${turnList(turns)} on its own: the model gateway's record shows no refused, unanswered or broken agent call in ${turns.length === 1 ? 'that turn' : 'those turns'}; the run stands as judged`;
    return { ...result, agent_failed: { turns, text, evidence: 'gateway_record', note } satisfies AgentFailedRecord };
  }
  // Not judged after all: the verdict's fields go, the daemon's status (with its judgment) stays.
  const { reward: _r, failure_reasons: _f, judged_in_container: _j, num_oracle_events: _n, agent_failed: _a, ...rest } = result;
  const first = calls[0]!;
  return {
    ...rest,
    success: null,
    status: 'error',
    error_kind: 'provider_error',
    error: providerFailureMessage(failures, calls),
    provider_failure: { provider: first.provider, status: first.http_status, calls },
  };
}
