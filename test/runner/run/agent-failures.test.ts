// Errors counted by evidence: a judged run whose agent program failed turns is weighed against
// the model gateway's record of its container. The record lines are the real gateway's: each
// is made by sending one request through the gateway (runner/src/gateway/server.ts) to a
// provider double that answers, refuses, throttles or drops, and only their times and numbers
// are then set to place them in a scenario's turns.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DaemonStatus } from '@gaia2/contract/status';
import type { EventLine } from '@gaia2/contract/events';
import { formatEventLine } from '@gaia2/contract/pyjson';
import { NO_LIMITS } from '../../../runner/src/config/gateway.js';
import { kindOf } from '../../../runner/src/gateway/api-kinds.js';
import { TRAFFIC_FILE, type TrafficLine } from '../../../runner/src/gateway/record.js';
import { startGateway } from '../../../runner/src/gateway/server.js';
import type { Role } from '../../../runner/src/gateway/tokens.js';
import { buildResult } from '../../../runner/src/run/result.js';
import { turnWindows, weighAgentFailures, WINDOW_SLACK_S } from '../../../runner/src/run/agent-failures.js';
import { fail, say, startFakeLlm, type FakeScriptItem } from '../../helpers/fake-llm/index.js';

const LONG = 'a long answer in many words, streamed in several events so that half of them is a real prefix';

/** One request through a real gateway to a double playing `script`; the line the gateway recorded. */
async function recordedCall(script: FakeScriptItem[], o: { stream?: boolean; fallback?: FakeScriptItem; endRunMidAnswer?: boolean } = {}): Promise<TrafficLine> {
  const f = await startFakeLlm({ format: 'anthropic', script, ...(o.fallback ? { fallback: o.fallback } : {}) });
  const g = await startGateway({
    upstreams: [{ id: 'anthropic', provider: 'anthropic', spec: kindOf('anthropic', f.url)!, base: f.url, key: 'sk-test' }],
    plan: { limits: { default: NO_LIMITS, byKey: {} }, retryAttempts: 3, retryBudgetSeconds: 30 },
    prices: null,
    backoff: { baseDelayMs: 10, maxDelayMs: 20 },
  });
  const dir = mkdtempSync(join(tmpdir(), 'agent-failures-'));
  const token = g.tokens.issue({ runId: 'r1', container: 'search/s1', role: 'agent', upstream: 'anthropic', dir, scenario: 'search/s1', runIndex: null, recordKey: 'search/s1' });
  const body = JSON.stringify({ model: 'claude-sonnet-4-20250514', max_tokens: 64, stream: o.stream ?? false, messages: [{ role: 'user', content: 'q' }] });
  const sent = fetch(`${g.baseUrl('anthropic')}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': token, 'anthropic-version': '2023-06-01' }, body })
    .then((r) => r.text())
    .catch(() => ''); // a cut answer rejects: the client saw a reset
  if (o.endRunMidAnswer) {
    // the run ends while the provider is still answering, as the runner ends it (run-gateway.ts finish)
    while (f.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    g.tokens.revoke('search/s1');
    await g.endRun('search/s1');
  }
  await sent;
  await g.recorder.flush();
  await g.close();
  await f.close();
  return JSON.parse(readFileSync(join(dir, TRAFFIC_FILE), 'utf8').trim()) as TrafficLine;
}

const real: Record<'ok' | 'refused' | 'throttledThenOk' | 'cut' | 'gaveUp' | 'abandoned', TrafficLine> = {} as never;
beforeAll(async () => {
  real.ok = await recordedCall([say('fine')]);
  real.refused = await recordedCall([{ status: 400, message: 'prompt is too long' }]);
  real.throttledThenOk = await recordedCall([fail(429, 0), say('fine')]);
  real.cut = await recordedCall([{ text: LONG, drop: 'mid-stream' }, say(LONG)], { stream: true });
  real.gaveUp = await recordedCall([], { fallback: { status: 529, message: 'Overloaded' } });
  real.abandoned = await recordedCall([say('too late', { delayMs: 2000 })], { stream: true, endRunMidAnswer: true });
});

/** A recorded line placed at `t` (its own duration kept), numbered `seq`, made by `role`. */
function at(line: TrafficLine, t: number, seq: number, role: Role = 'agent'): TrafficLine {
  return { ...line, t, t_end: t + (line.t_end - line.t), timestamp: new Date(t * 1000).toISOString(), seq, role };
}
const traffic = (lines: TrafficLine[]): string => lines.map((l) => JSON.stringify(l) + '\n').join('');

/** events.jsonl with deliveries (`in`) and replies (`out`) at the given wall times, in the daemon's own format. */
function events(steps: Array<['in' | 'out' | 'app', number]>): string {
  return steps
    .map(([k, wall]) => {
      const fn = k === 'in' ? 'send_message_to_agent' : k === 'out' ? 'send_message_to_user' : 'search_emails';
      const line: EventLine = { t: wall, app: k === 'app' ? 'EmailClientV2' : 'AgentUserInterface', fn, args: { content: k }, w: k === 'out', ret: null, sim_t: '2025-10-09 09:00:00', wall_t: wall };
      return formatEventLine(line) + '\n';
    })
    .join('');
}

const T0 = 1_764_000_000;

/** A judged result (as production builds it) whose daemon status lists failed turns at these wall times. */
function judged(success: boolean, failures: Array<{ turn: number; wall_t: number }>) {
  const status = {
    status: success ? 'complete' : 'stopped',
    turn: failures.length ? Math.max(...failures.map((f) => f.turn)) : 1,
    nb_turns: 2,
    num_events: 4,
    judgment: { success, failure_reason: success ? '' : 'Tool count mismatch' },
    agent_failures: failures.map((f) => ({ ...f, text: `Error: the agent failed on turn ${f.turn}`, detail: 'exit code 1', sim_time: '2025-10-09 09:00:05' })),
  } as DaemonStatus;
  return buildResult({ scenarioId: 's1', scenarioFile: 'search/s1.json', status, numAgentEvents: 4, agentResponse: 'x' });
}

describe('the real record lines these tests use', () => {
  it('are what the gateway writes for each case', () => {
    expect(real.ok).toMatchObject({ role: 'agent', http_status: 200, attempt: 1 });
    expect(real.ok.error).toBeUndefined();
    expect(real.refused).toMatchObject({ http_status: 400, attempt: 1 });
    expect(real.throttledThenOk.attempts.map((a) => a.status)).toEqual([429, 200]);
    expect(real.throttledThenOk.error).toBeUndefined();
    expect(real.cut.http_status).toBe(200);
    expect(real.cut.error).toMatch(/broke mid-answer/);
    expect(real.gaveUp).toMatchObject({ http_status: 529, attempt: 3 });
    expect(real.abandoned).toMatchObject({ http_status: 0, usage: null, abandoned: true });
  });
});

describe('a judged run whose program failed a turn', () => {
  const oneTurn = (failAt: number) => events([['in', T0], ['app', T0 + 3], ['out', failAt]]);

  it('with no failed call in the turn: stands as judged, agent_failed says the record was checked', () => {
    const r = weighAgentFailures(judged(false, [{ turn: 1, wall_t: T0 + 10 }]), {
      record: { traffic: traffic([at(real.ok, T0 + 1, 1), at(real.throttledThenOk, T0 + 4, 2)]), events: oneTurn(T0 + 10) },
    });
    expect(r.status).toBe('fail');
    expect(r.success).toBe(false);
    expect(r.error_kind).toBeUndefined();
    expect(r.agent_failed).toMatchObject({ turns: [1], text: 'Error: the agent failed on turn 1', evidence: 'gateway_record' });
    expect(r.agent_failed!.note).toMatch(/no refused, unanswered or broken agent call/);
  });

  it('a pass stands too, with agent_failed', () => {
    const r = weighAgentFailures(judged(true, [{ turn: 1, wall_t: T0 + 10 }]), { record: { traffic: traffic([at(real.ok, T0 + 1, 1)]), events: oneTurn(T0 + 10) } });
    expect(r.status).toBe('pass');
    expect(r.agent_failed?.turns).toEqual([1]);
  });

  it('with a refusal (HTTP 400) in the turn: provider_error naming the call, out of the judged fields', () => {
    const r = weighAgentFailures(judged(false, [{ turn: 1, wall_t: T0 + 10 }]), {
      record: { traffic: traffic([at(real.ok, T0 + 1, 1), at(real.refused, T0 + 5, 2)]), events: oneTurn(T0 + 10) },
    });
    expect(r).toMatchObject({ status: 'error', success: null, error_kind: 'provider_error' });
    expect(r.error).toMatch(/^the agent's program failed turn 1 while its provider failed: the model gateway's record shows 1 failed agent call in that turn \(#2 to anthropic \(claude-sonnet-4-20250514\): HTTP 400 after 1 attempt\)/);
    expect(r.error).toContain('the program said: Error: the agent failed on turn 1');
    expect(r.provider_failure).toMatchObject({ provider: 'anthropic', status: 400, calls: [{ turn: 1, seq: 2, http_status: 400, attempts: 1 }] });
    // No verdict left behind: every reader counts it as an error.
    for (const k of ['reward', 'failure_reasons', 'judged_in_container', 'agent_failed']) expect(r).not.toHaveProperty(k);
    // The daemon's status, judgment included, is kept for whoever looks.
    expect((r.daemon_status as unknown as DaemonStatus).judgment).toBeDefined();
  });

  it('with a connection cut mid-answer, or a request the gateway gave up on: provider_error saying so', () => {
    const cut = weighAgentFailures(judged(false, [{ turn: 1, wall_t: T0 + 10 }]), { record: { traffic: traffic([at(real.cut, T0 + 2, 1)]), events: oneTurn(T0 + 10) } });
    expect(cut.error_kind).toBe('provider_error');
    expect(cut.error).toMatch(/#1 to anthropic \(claude-sonnet-4-20250514\): HTTP 200 after 2 attempts: .*broke mid-answer/);
    const gaveUp = weighAgentFailures(judged(false, [{ turn: 1, wall_t: T0 + 10 }]), { record: { traffic: traffic([at(real.gaveUp, T0 + 2, 1)]), events: oneTurn(T0 + 10) } });
    expect(gaveUp.error).toMatch(/#1 to anthropic \(claude-sonnet-4-20250514\): HTTP 529 after 3 attempts/);
    expect(gaveUp.provider_failure).toMatchObject({ status: 529 });
  });

  it('a call the gateway abandoned because the run had ended is no provider failure: the run stands as judged', () => {
    const r = weighAgentFailures(judged(false, [{ turn: 1, wall_t: T0 + 10 }]), { record: { traffic: traffic([at(real.ok, T0 + 1, 1), at(real.abandoned, T0 + 9, 2)]), events: oneTurn(T0 + 10) } });
    expect(r.status).toBe('fail');
    expect(r.error_kind).toBeUndefined();
    expect(r.agent_failed?.evidence).toBe('gateway_record');
    // the same call without the gateway's mark is a call that got no answer
    const { abandoned: _a, ...unmarked } = real.abandoned;
    const u = weighAgentFailures(judged(false, [{ turn: 1, wall_t: T0 + 10 }]), { record: { traffic: traffic([at(unmarked as TrafficLine, T0 + 9, 2)]), events: oneTurn(T0 + 10) } });
    expect(u.error_kind).toBe('provider_error');
  });

  it('a failed call of another turn, or of an app agent, is no evidence about the failed turn', () => {
    // Turn 1 had a refusal, the program recovered and replied; turn 2 failed with clean calls.
    const ev = events([['in', T0], ['out', T0 + 20], ['in', T0 + 60], ['out', T0 + 90]]);
    const r = weighAgentFailures(judged(false, [{ turn: 2, wall_t: T0 + 90 }]), {
      record: { traffic: traffic([at(real.refused, T0 + 5, 1), at(real.ok, T0 + 10, 2), at(real.ok, T0 + 70, 3), at(real.refused, T0 + 75, 1, 'app_agent')]), events: ev },
    });
    expect(r.status).toBe('fail');
    expect(r.agent_failed).toMatchObject({ turns: [2], evidence: 'gateway_record' });
    // The same record with the refusal inside turn 2: provider_error for turn 2.
    const r2 = weighAgentFailures(judged(false, [{ turn: 2, wall_t: T0 + 90 }]), { record: { traffic: traffic([at(real.ok, T0 + 10, 1), at(real.refused, T0 + 80, 2)]), events: ev } });
    expect(r2.error).toMatch(/failed turn 2 while its provider failed/);
  });

  it('several failed turns and calls: each call named once with its turn, past five counted', () => {
    const ev = events([['in', T0], ['out', T0 + 20], ['in', T0 + 60], ['out', T0 + 90]]);
    const calls = [at(real.refused, T0 + 2, 1), ...[0, 1, 2, 3, 4, 5].map((i) => at(real.refused, T0 + 62 + i, 2 + i))];
    const r = weighAgentFailures(judged(false, [{ turn: 1, wall_t: T0 + 20 }, { turn: 2, wall_t: T0 + 90 }]), { record: { traffic: traffic(calls), events: ev } });
    expect(r.error).toMatch(/failed turns 1, 2 while its provider failed: the model gateway's record shows 7 failed agent calls in those turns/);
    expect(r.error).toMatch(/; and 2 more\)/);
    expect((r.provider_failure as { calls: Array<{ turn: number }> }).calls.map((c) => c.turn)).toEqual([1, 2, 2, 2, 2, 2, 2]);
  });

  it('without a record (direct mode): stands as judged, and says nothing could be checked', () => {
    const r = weighAgentFailures(judged(false, [{ turn: 1, wall_t: T0 + 10 }]), { none: 'the run called its provider directly (no model gateway, no record)' });
    expect(r.status).toBe('fail');
    expect(r.agent_failed).toMatchObject({ turns: [1], evidence: 'none' });
    expect(r.agent_failed!.note).toMatch(/called its provider directly.*cannot be told: the run stands as judged/);
  });

  it('an empty record (the program made no call) is evidence of no provider failure', () => {
    const r = weighAgentFailures(judged(false, [{ turn: 1, wall_t: T0 + 10 }]), { record: { traffic: '', events: oneTurn(T0 + 10) } });
    expect(r.agent_failed?.evidence).toBe('gateway_record');
  });
});

describe('left as they are', () => {
  it('a run without failed turns, and a run that ended in an error', () => {
    const clean = judged(false, []);
    expect(weighAgentFailures(clean, { record: { traffic: traffic([at(real.refused, T0, 1)]), events: '' } })).toBe(clean);
    const err = buildResult({ scenarioId: 's1', scenarioFile: 'f', status: null, numAgentEvents: 0, agentResponse: null, failure: { kind: 'health_timeout', message: 'x' } });
    const withFailures = { ...err, daemon_status: { agent_failures: [{ turn: 1, wall_t: T0, text: 't', detail: '', sim_time: '' }] } };
    expect(weighAgentFailures(withFailures, { none: 'x' })).toBe(withFailures);
  });
});

describe('turn windows', () => {
  it('run from the end of the previous turn (its reply; the container’s start for turn 1) to the failure', () => {
    const f = (turn: number, wall_t: number) => ({ turn, wall_t, text: '', detail: '', sim_time: '' });
    const ev = events([['in', T0], ['app', T0 + 1], ['out', T0 + 20], ['in', T0 + 60], ['in', T0 + 61], ['out', T0 + 90], ['out', T0 + 95]]);
    expect(turnWindows([f(1, T0 + 20), f(2, T0 + 90), f(3, T0 + 95)], ev)).toEqual([
      { turn: 1, start: -Infinity, end: T0 + 20 },
      { turn: 2, start: T0 + 20, end: T0 + 90 },
      { turn: 3, start: T0 + 90, end: T0 + 95 },
    ]);
    expect(turnWindows([f(1, T0 + 5)], '')).toEqual([{ turn: 1, start: -Infinity, end: T0 + 5 }]);
  });

  it('hold a program’s start-up before the first message and a restart before a later one', () => {
    // A program that stays up starts before the task is delivered; its provider refused it then.
    const startUp = weighAgentFailures(judged(false, [{ turn: 1, wall_t: T0 + 40 }]), {
      record: { traffic: traffic([at(real.refused, T0 - 30, 1)]), events: events([['in', T0], ['out', T0 + 40]]) },
    });
    expect(startUp.error_kind).toBe('provider_error');
    // Restarted after turn 1's reply, refused while starting, before turn 2's message arrived.
    const restart = weighAgentFailures(judged(false, [{ turn: 2, wall_t: T0 + 90 }]), {
      record: { traffic: traffic([at(real.ok, T0 + 5, 1), at(real.refused, T0 + 30, 2)]), events: events([['in', T0], ['out', T0 + 20], ['in', T0 + 60], ['out', T0 + 90]]) },
    });
    expect(restart.error).toMatch(/failed turn 2 while its provider failed: .*#2 to anthropic/);
  });

  it('take calls within the slack of either end (two machines’ clocks), not beyond', () => {
    // Turn 2 of a run whose turn 1 ended (its reply) at T0 + 100.
    const ev = events([['in', T0], ['out', T0 + 100], ['in', T0 + 105], ['out', T0 + 110]]);
    const weigh = (t: number) => weighAgentFailures(judged(false, [{ turn: 2, wall_t: T0 + 110 }]), { record: { traffic: traffic([at(real.refused, t, 1)]), events: ev } }).status;
    expect(weigh(T0 + 110 + WINDOW_SLACK_S - 0.5)).toBe('error');
    expect(weigh(T0 + 110 + WINDOW_SLACK_S + 1)).toBe('fail');
    expect(weigh(T0 + 100 - WINDOW_SLACK_S - real.refused.t_end + real.refused.t + 0.5)).toBe('error');
    expect(weigh(T0 + 100 - WINDOW_SLACK_S - (real.refused.t_end - real.refused.t) - 1)).toBe('fail');
  });
});
