// Settings of the default agent (besides the model, see llm/config.ts), from the environment.
import { ENV } from '../../contract/paths.js';
import type { ToolMode } from './prompt.js';

export interface AgentOptions {
  tools: ToolMode;
  maxSteps: number;
  shellTimeoutMs: number;
  maxOutputChars: number;
  /** Where the app CLIs are (shell mode). */
  binDir: string;
  /** Working directory of shell commands. */
  workdir: string;
  /** Take mid-run messages at once (steering) instead of after the reply. */
  steer: boolean;
  stream: boolean;
}

/** Variable names, beyond the contract's GAIA2_AGENT_TOOLS. */
export const AGENT_ENV = {
  tools: ENV.agentTools,
  maxSteps: 'GAIA2_AGENT_MAX_STEPS',
  shellTimeout: 'GAIA2_AGENT_SHELL_TIMEOUT',
  maxOutput: 'GAIA2_AGENT_MAX_OUTPUT',
  binDir: 'GAIA2_AGENT_BIN',
  workdir: 'GAIA2_AGENT_HOME',
  steer: 'GAIA2_AGENT_STEER',
  stream: 'GAIA2_LLM_STREAM',
} as const;

export const DEFAULT_AGENT_OPTIONS: AgentOptions = {
  tools: 'shell',
  maxSteps: 90,
  shellTimeoutMs: 60_000,
  maxOutputChars: 20_000,
  binDir: '/home/agent/bin',
  workdir: '/home/agent',
  steer: true,
  stream: false,
};

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer (got "${raw}")`);
  return n;
}

function bool(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (!raw) return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new Error(`${name} must be true or false (got "${env[name]}")`);
}

export function agentOptionsFromEnv(env: NodeJS.ProcessEnv): AgentOptions {
  const d = DEFAULT_AGENT_OPTIONS;
  const tools = (env[AGENT_ENV.tools]?.trim().toLowerCase() || d.tools) as ToolMode;
  if (tools !== 'shell' && tools !== 'functions') {
    throw new Error(`${AGENT_ENV.tools} must be one of: shell, functions (got "${env[AGENT_ENV.tools]}")`);
  }
  return {
    tools,
    maxSteps: positiveInt(env, AGENT_ENV.maxSteps, d.maxSteps),
    shellTimeoutMs: positiveInt(env, AGENT_ENV.shellTimeout, d.shellTimeoutMs / 1000) * 1000,
    maxOutputChars: positiveInt(env, AGENT_ENV.maxOutput, d.maxOutputChars),
    binDir: env[AGENT_ENV.binDir]?.trim() || d.binDir,
    workdir: env[AGENT_ENV.workdir]?.trim() || d.workdir,
    steer: bool(env, AGENT_ENV.steer, d.steer),
    stream: bool(env, AGENT_ENV.stream, d.stream),
  };
}
