// Builds result.json from what the run observed, following the reference's result shape
// (docs/runner.md, "result.json") and adding status / error_kind (docs/runner.md).
import { ERROR_KINDS, type DaemonStatus, type ErrorKind, type ScenarioResult } from '@gaia2/contract';
import { stuckLoopReason, type StuckLoopRecord } from './stuck-loop.js';
import { budgetReason, type BudgetBreach } from '../plan/budget.js';

export interface Observed {
  scenarioId: string;
  scenarioFile: string;
  status: DaemonStatus | null;
  numAgentEvents: number;
  agentResponse: string | null;
  timedOut?: { seconds: number; kind: 'scenario_timeout' | 'activity_timeout' };
  /** Scenario duration when it declares one (a timeout then counts as a model failure). */
  duration?: number | null;
  /** Set when the run failed outside the daemon (engine, health, exit, interrupt…). */
  failure?: { kind: ErrorKind; message: string };
  /** The agent repeated a call without progress ([run].stuck_loop_min_tool_calls): a judged failure. */
  stuckLoop?: StuckLoopRecord | null;
  /** A cap of the run's budget was met (plan/budget.ts): a judged failure. */
  budget?: BudgetBreach | null;
}

export function buildResult(o: Observed): ScenarioResult {
  const ds = o.status;
  const judgment = ds?.judgment;
  const common = {
    scenario_id: o.scenarioId,
    num_agent_events: o.numAgentEvents,
    agent_response: o.agentResponse,
  };
  const tail = {
    ...(o.timedOut ? { timed_out: true, timeout_seconds: o.timedOut.seconds } : {}),
    ...(ds ? { daemon_status: ds as unknown as Record<string, unknown> } : {}),
    scenario_file: o.scenarioFile,
    ...(ds?.judge_mode ? { judge_mode: ds.judge_mode } : {}),
  };

  if (o.budget) {
    // As a stuck loop: the agent spent what it was given, whatever came after.
    return {
      ...common,
      success: false,
      reward: 0.0,
      num_oracle_events: 0,
      failure_reasons: [budgetReason(o.budget)],
      budget_exceeded: o.budget,
      ...tail,
      status: 'fail',
    };
  }

  if (o.stuckLoop) {
    // Whatever else happened after it (a verdict, a timeout, an error): the loop came first, and
    // the run is the agent's failure from there on, however quickly the runner noticed.
    return {
      ...common,
      success: false,
      reward: 0.0,
      num_oracle_events: 0,
      failure_reasons: [stuckLoopReason(o.stuckLoop)],
      stuck_loop: o.stuckLoop,
      ...tail,
      status: 'fail',
    };
  }

  if (judgment && !o.failure) {
    const success = judgment.success === true;
    return {
      ...common,
      success,
      reward: success ? 1.0 : 0.0,
      num_oracle_events: 0,
      judged_in_container: true,
      ...(success ? {} : { failure_reasons: [judgment.failure_reason || `daemon status: ${ds?.status}`] }),
      ...tail,
      status: success ? 'pass' : 'fail',
    };
  }

  if (o.timedOut && o.duration && !o.failure) {
    // The reference counts running out of a declared scenario duration as the model's failure.
    return {
      ...common,
      success: false,
      reward: 0.0,
      failure_reasons: [
        `Scenario timeout: agent did not complete within ${Math.trunc(o.duration)}s scenario duration (${o.numAgentEvents} tool calls)`,
      ],
      ...tail,
      status: 'fail',
    };
  }

  const { kind, message } = o.failure ?? notJudged(ds, o);
  return { ...common, success: null, error: message, ...tail, status: 'error', error_kind: kind };
}

/** A daemon's error status as a run's failure: its own kind when it names one, else daemon_error. */
export function daemonFailure(ds: DaemonStatus, fallback = 'no reason given'): { kind: ErrorKind; message: string } {
  if (ds.error_kind && (ERROR_KINDS as readonly string[]).includes(ds.error_kind)) {
    return { kind: ds.error_kind as ErrorKind, message: ds.reason ?? `daemon status error (${ds.error_kind})` };
  }
  return { kind: 'daemon_error', message: `Daemon error: ${ds.reason ?? fallback}` };
}

function notJudged(ds: DaemonStatus | null, o: Observed): { kind: ErrorKind; message: string } {
  if (o.timedOut) {
    return {
      kind: o.timedOut.kind,
      message:
        o.timedOut.kind === 'activity_timeout'
          ? `no agent activity for ${o.timedOut.seconds}s (turn and event count unchanged); raise [run] activity_timeout if the agent is just slow`
          : `scenario did not finish within ${o.timedOut.seconds}s; raise [run] timeout if this is expected`,
    };
  }
  const status = ds?.status ?? 'unknown';
  const why = ds?.reason ? `: ${ds.reason}` : '';
  if (status === 'error') return daemonFailure(ds!, `no turn boundary detected (${o.numAgentEvents} tool calls)`);
  if (status === 'unknown') {
    return {
      kind: 'no_judgment',
      message: 'Adapter /status endpoint unreachable before scenario end and no daemon_status.json recovered from container',
    };
  }
  return { kind: 'no_judgment', message: `No judgment (daemon status: ${status}, ${o.numAgentEvents} agent events)${why}` };
}
