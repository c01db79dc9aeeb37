import type { ScenarioResult } from '@gaia2/contract/result';
import type { BudgetBreach } from '../plan/budget.js';
import type { ContainerFile, ContainerHandle, UnitBackend } from '../engine/index.js';

import type { AgentRecord } from '@gaia2/contract/result';
import type { ScenarioEntry } from '../dataset/index.js';
import type { AdapterClient } from './adapter-client.js';

/** The plan's agent name (runner/src/config/plan.ts AgentName). */
export type AgentName = string;

export interface RunTimeouts {
  /** Until GET /health says connected. */
  healthSeconds: number;
  /** Whole scenario; the effective deadline is max(duration + 60, this) when the scenario has a duration. */
  scenarioSeconds: number;
  /** Without any change of turn or num_events. */
  activitySeconds: number;
}

export const DEFAULT_TIMEOUTS: RunTimeouts = { healthSeconds: 120, scenarioSeconds: 600, activitySeconds: 600 };

/** Runs one scenario to its result (runScenario; the result cache wraps it). */
export type RunScenarioFn = (o: ScenarioRunOptions) => Promise<ScenarioResult>;

export interface ScenarioRunOptions {
  engine: UnitBackend;
  image: string;
  scenarioFile: string;
  /**
   * The scenario's facts from the plan's one parse (dataset/): the run then reads the file's
   * bytes only to deliver them, checked against the planned hash, and never parses them again.
   * Without it (a run outside a plan) the run reads and parses the file itself, by the same rules.
   */
  scenario?: ScenarioEntry;
  /** Artifacts and result.json land here; null keeps nothing on disk. */
  outputDir: string | null;
  /** Container environment, secrets included. Never logged; values go only through the API body. */
  env: Record<string, string>;
  agent: AgentName;
  /** Recorded in result.json as `agent`; default {name: agent, version: null}. */
  agentRecord?: AgentRecord;
  network: 'bridge' | 'host';
  /** Seal the container's network (docs/config.md, "Sealed network") if its image can. */
  seal?: boolean;
  timeouts: RunTimeouts;
  labels: Record<string, string>;
  runIndex?: number;
  split?: string;
  signal?: AbortSignal;
  log?: (line: string) => void;
  /** Extra files put into the container before it starts (e.g. the host CA bundle, a chain's carried home). */
  files?: ContainerFile[];
  /**
   * The scenario's bytes to deliver instead of the file's (a universe chain's next scenario with
   * the carried app states in it); the planned facts still describe it.
   */
  content?: Buffer;
  /**
   * Called with the finished unit after its artifacts are collected, before it is removed (a
   * chain takes its carry); `image` is its adapter when the image serves GET /carry (carry-route).
   */
  beforeRemove?: (unit: ContainerHandle, image: Pick<AdapterClient, 'carry'> | null) => Promise<void>;
  /** Container port of the adapter (host networking needs a distinct one per container). */
  adapterPort?: number;
  /**
   * [run].stuck_loop_min_tool_calls: the run ends as a failure once the agent made the same tool
   * call with the same result this many times in a row (./stuck-loop.ts); 0 or absent = never.
   */
  stuckLoopMinToolCalls?: number;
  /**
   * The run's budget (plan/budget.ts): the cap the run's agent side has met, asked at every
   * status poll; once one is met the run ends as a judged failure. Absent: no budget.
   */
  overBudget?: () => BudgetBreach | null;
  /** The same, asked afresh once the run ended (the last calls' answers may be newer than overBudget's count). */
  overBudgetNow?: () => Promise<BudgetBreach | null>;
  /** Status poll interval in ms (default 300). */
  pollIntervalMs?: number;
  /**
   * When set, the finished container's shutdown and removal are handed over here instead of
   * awaited (the result then has no remove_ms): the caller runs them once it has recorded the
   * result, and must run them (run/background-work.ts).
   */
  onCleanup?: (cleanup: () => Promise<void>) => void;
}
