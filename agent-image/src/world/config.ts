// Daemon settings from the environment (names in contract/paths.ts ENV and below). Each
// error names the variable at fault.
import { ENV } from '../contract/paths.js';
import { CLOCK_MODES, type ClockMode } from './clock.js';
import { CLOCK_CPU_WAIT_MODES as CLOCK_CPU_WAIT, type ClockCpuWait } from '../contract/sim-clock.js';
import { noiseFromEnv, NoiseSettingsError, type NoiseSettings } from '../contract/noise.js';
import { parsePromptVersion, type PromptVersion } from '../judge/prompt-sets.js';
import { parseExtraBody, type ExtraBody } from '../llm/extra-body.js';

/** external: an agent layer's launcher (contract/agent-layer.ts) plays through the agent link. */
export const AGENTS = ['oracle', 'default', 'scripted', 'external'] as const;
export type AgentName = (typeof AGENTS)[number];

/** Switches from reference quirks to corrected behaviour (docs/contract.md). */
export const FIX_ENV = {
  /** 1: judge the final turn up to the last reply; close only once the agent is idle after a reply (W1). */
  finalTurnLastReply: 'GAIA2_FIX_W1',
  /** 1: a chained ENV event fires its own delay after its parent, not at start + delay (W2). */
  chainedEnvTiming: 'GAIA2_FIX_W2',
} as const;

export const CONNECT_TIMEOUT_ENV = 'GAIA2_CONNECT_TIMEOUT';

/**
 * Why this runtime plays (docs/contract.md, "Which agent runtime plays"): GAIA2_AGENT names it;
 * without it, no PROVIDER means the reference runner's oracle profile (which passes no
 * provider), and a PROVIDER means an LLM agent.
 */
export type AgentChosenBy = 'GAIA2_AGENT' | 'no PROVIDER' | 'PROVIDER';

export interface DaemonSettings {
  agent: AgentName;
  agentChosenBy: AgentChosenBy;
  clockMode: ClockMode;
  /** GAIA2_CLOCK_CPU_WAIT: exclude keeps the run's CPU wait off the clock (cpu-wait-pacing.ts). */
  clockCpuWait: ClockCpuWait;
  /** GAIA2_TIME_SPEED (multiplies the scenario's time increment). */
  timeSpeed: number;
  judgeFinalTurn: boolean;
  idleTimeoutSec: number;
  connectTimeoutSec: number;
  fixes: { finalTurnLastReply: boolean; chainedEnvTiming: boolean };
  /** Noise phase (GAIA2_NOISE); absent or null = standard phase. */
  noise?: NoiseSettings | null;
  /** The judge's prompt set (GAIA2_JUDGE_PROMPT_VERSION); absent = default. */
  judgePromptVersion?: PromptVersion;
  /** Merged into every judge request body (GAIA2_JUDGE_EXTRA_BODY); absent = none. */
  judgeExtraBody?: ExtraBody;
}

export class SettingsError extends Error {
  override name = 'SettingsError';
}

const truthy = (v: string | undefined): boolean => !!v && !['', '0', 'false', 'no', 'off'].includes(v.trim().toLowerCase());

function positive(env: NodeJS.ProcessEnv, name: string, dflt: number): number {
  const raw = env[name]?.trim();
  if (!raw) return dflt;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new SettingsError(`${name} must be a positive number (got "${raw}")`);
  return n;
}

export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): DaemonSettings {
  const named = (env[ENV.agent] ?? '').trim().toLowerCase();
  const agentChosenBy: AgentChosenBy = named ? 'GAIA2_AGENT' : env.PROVIDER?.trim() ? 'PROVIDER' : 'no PROVIDER';
  const agentRaw = named || (agentChosenBy === 'PROVIDER' ? 'default' : 'oracle');
  if (!(AGENTS as readonly string[]).includes(agentRaw)) {
    throw new SettingsError(`${ENV.agent} must be one of ${AGENTS.join(', ')} (got "${agentRaw}")`);
  }
  const agent = agentRaw as AgentName;
  const modeRaw = (env[ENV.clockMode] ?? '').trim().toLowerCase();
  if (modeRaw && !(CLOCK_MODES as readonly string[]).includes(modeRaw)) {
    throw new SettingsError(`${ENV.clockMode} must be one of ${CLOCK_MODES.join(', ')} (got "${modeRaw}")`);
  }
  // LLM agents (ours, an agent layer's) live in real time; replays skip idle waits.
  const clockMode = (modeRaw || (agent === 'default' || agent === 'external' ? 'realtime' : 'fast-forward')) as ClockMode;
  const cpuWaitRaw = (env[ENV.clockCpuWait] ?? '').trim().toLowerCase();
  if (cpuWaitRaw && !(CLOCK_CPU_WAIT as readonly string[]).includes(cpuWaitRaw)) {
    throw new SettingsError(`${ENV.clockCpuWait} must be one of ${CLOCK_CPU_WAIT.join(', ')} (got "${cpuWaitRaw}")`);
  }
  let noise: NoiseSettings | null;
  try {
    noise = noiseFromEnv(env);
  } catch (e) {
    throw e instanceof NoiseSettingsError ? new SettingsError(e.message) : e;
  }
  // The judge's settings are checked at start, before any agent runs: a typo in a prompt
  // set's name must not turn into a run judged with the wrong prompts.
  let judgePromptVersion: PromptVersion;
  let judgeExtraBody: ExtraBody | undefined;
  try {
    judgePromptVersion = parsePromptVersion(env[ENV.judgePromptVersion], ENV.judgePromptVersion);
    judgeExtraBody = parseExtraBody(env[ENV.judgeExtraBody], ENV.judgeExtraBody);
  } catch (e) {
    throw new SettingsError((e as Error).message);
  }
  return {
    noise,
    judgePromptVersion,
    ...(judgeExtraBody ? { judgeExtraBody } : {}),
    agent,
    agentChosenBy,
    clockMode,
    clockCpuWait: (cpuWaitRaw || 'count') as ClockCpuWait,
    timeSpeed: positive(env, ENV.timeSpeed, 1),
    judgeFinalTurn: truthy(env[ENV.judgeFinalTurn]),
    idleTimeoutSec: positive(env, ENV.idleTimeout, 300),
    connectTimeoutSec: positive(env, CONNECT_TIMEOUT_ENV, 120),
    fixes: {
      finalTurnLastReply: truthy(env[FIX_ENV.finalTurnLastReply]),
      chainedEnvTiming: truthy(env[FIX_ENV.chainedEnvTiming]),
    },
  };
}
