import { describe, expect, it } from 'vitest';
import { buildResult, type Observed } from '../../../runner/src/run/result.js';
import { formatSimTime } from '../../../runner/src/run/scenario-facts.js';

const base: Observed = { scenarioId: 's1', scenarioFile: '/x/s1.json', status: null, numAgentEvents: 3, agentResponse: 'ok' };
const ds = (extra: object) => ({ status: 'complete', turn: 1, nb_turns: 1, num_events: 3, ...extra }) as Observed['status'];

describe('result.json from what a run observed', () => {
  it('a passing judgment is a pass with reward 1.0 and no failure reasons', () => {
    const r = buildResult({ ...base, status: ds({ judgment: { success: true, failure_reason: '' } }) });
    expect(r).toMatchObject({ status: 'pass', success: true, reward: 1, judged_in_container: true });
    expect(r.failure_reasons).toBeUndefined();
  });

  it('a failing judgment is a fail carrying the judge reason', () => {
    const r = buildResult({ ...base, status: ds({ status: 'stopped', judgment: { success: false, failure_reason: 'Tool count mismatch' } }) });
    expect(r).toMatchObject({ status: 'fail', success: false, reward: 0, failure_reasons: ['Tool count mismatch'] });
  });

  it('a timeout of a scenario with a declared duration is the model failing (as the reference)', () => {
    const r = buildResult({ ...base, duration: 120, timedOut: { seconds: 180, kind: 'scenario_timeout' } });
    expect(r.status).toBe('fail');
    expect(r.failure_reasons?.[0]).toBe('Scenario timeout: agent did not complete within 120s scenario duration (3 tool calls)');
    expect(r).toMatchObject({ timed_out: true, timeout_seconds: 180 });
  });

  it('an activity timeout without a duration is a typed error', () => {
    const r = buildResult({ ...base, timedOut: { seconds: 600, kind: 'activity_timeout' } });
    expect(r).toMatchObject({ status: 'error', success: null, error_kind: 'activity_timeout' });
  });

  it('the daemon’s typed error kind is kept (provider_error), with its reason', () => {
    const r = buildResult({ ...base, status: ds({ status: 'error', error_kind: 'provider_error', reason: 'agent run failed (provider_error): 401' }) });
    expect(r).toMatchObject({ status: 'error', error_kind: 'provider_error', error: 'agent run failed (provider_error): 401' });
  });

  it("a third-party agent's failed turn stays agent_error (docs/agents.md), not a daemon error", () => {
    const reason = 'agent run failed (agent_error): Error: the agent failed (launcher exit code 1): claude exited with code 1: API Error: 400';
    const r = buildResult({ ...base, status: ds({ status: 'error', error_kind: 'agent_error', reason }) });
    expect(r).toMatchObject({ status: 'error', error_kind: 'agent_error', error: reason });
  });

  it('an untyped daemon error is daemon_error; no status at all is no_judgment', () => {
    expect(buildResult({ ...base, status: ds({ status: 'error', reason: 'idle timeout' }) }).error_kind).toBe('daemon_error');
    expect(buildResult({ ...base }).error_kind).toBe('no_judgment');
  });

  it('a runner-side failure wins over a judgment', () => {
    const r = buildResult({ ...base, status: ds({ judgment: { success: true, failure_reason: '' } }), failure: { kind: 'interrupted', message: 'Ctrl-C' } });
    expect(r).toMatchObject({ status: 'error', error_kind: 'interrupted' });
  });
});

describe('sim time', () => {
  it('formats sim time in UTC', () => {
    expect(formatSimTime(1759914000)).toBe('2025-10-08 09:00:00');
  });
});
