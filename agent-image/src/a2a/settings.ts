// Agent2Agent settings inside the image: GAIA2_A2A (JSON, written by the runner), the app
// agents' endpoint in GAIA2_A2A_BASE_URL (a variable of its own, so that the runner rewrites a
// host-loopback URL for bridged containers as it does BASE_URL) and their key in
// GAIA2_A2A_API_KEY, which only the world daemon sees (the agent runtime's environment is
// rebuilt from an allow-list that does not include it).
import { ENV } from '../contract/paths.js';
import { LlmConfigError, parseProvider, parseThinking, type LlmConfig } from '../llm/config.js';

export const A2A_ENV = { settings: ENV.a2a, baseUrl: ENV.a2aBaseUrl, apiKey: ENV.a2aApiKey } as const;

/** ARE's ARESimulationReactAppAgentConfig for the default app agent: 80 iterations. */
export const APP_AGENT_MAX_STEPS = 80;

export interface A2aSettings {
  /** Fraction of the scenario's eligible apps operated by app agents (ARE's a2a_app_prop). */
  appProp: number;
  /** Overrides the scenario's seed for the choice of apps. */
  seed: number | null;
  /** The app agents' model (each app agent has its own conversation with it). */
  llm: LlmConfig;
  maxSteps: number;
}

const str = (o: Record<string, unknown>, k: string, field: string): string | undefined => {
  const v = o[k];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new LlmConfigError(`${field}.${k} must be a string`);
  return v.trim() || undefined;
};

/** null when Agent2Agent is off (variable unset or app_prop 0). Errors name the variable and field. */
export function a2aSettingsFromEnv(env: NodeJS.ProcessEnv, traceFile?: string): A2aSettings | null {
  const raw = env[A2A_ENV.settings]?.trim();
  if (!raw) return null;
  const field = A2A_ENV.settings;
  let o: unknown;
  try {
    o = JSON.parse(raw);
  } catch (e) {
    throw new LlmConfigError(`${field} is not valid JSON: ${(e as Error).message}`);
  }
  if (!o || typeof o !== 'object' || Array.isArray(o)) throw new LlmConfigError(`${field} must be a JSON object`);
  const obj = o as Record<string, unknown>;
  const appProp = obj.app_prop;
  if (typeof appProp !== 'number' || !(appProp >= 0 && appProp <= 1)) throw new LlmConfigError(`${field}.app_prop must be a number from 0 to 1`);
  if (appProp === 0) return null;
  const seed = obj.seed ?? null;
  if (seed !== null && !(typeof seed === 'number' && Number.isSafeInteger(seed))) throw new LlmConfigError(`${field}.seed must be an integer`);
  const provider = str(obj, 'provider', field);
  const model = str(obj, 'model', field);
  if (!provider) throw new LlmConfigError(`${field}.provider is not set (the app agents need a model)`);
  if (!model) throw new LlmConfigError(`${field}.model is not set (the app agents need a model)`);
  const maxSteps = obj.max_steps ?? APP_AGENT_MAX_STEPS;
  if (typeof maxSteps !== 'number' || !Number.isInteger(maxSteps) || maxSteps < 1) throw new LlmConfigError(`${field}.max_steps must be a positive integer`);
  return {
    appProp,
    seed: seed as number | null,
    maxSteps,
    llm: {
      provider: parseProvider(provider, `${field}.provider`),
      model,
      baseUrl: env[A2A_ENV.baseUrl]?.trim() || undefined,
      apiKey: env[A2A_ENV.apiKey]?.trim() || undefined,
      thinking: parseThinking(str(obj, 'thinking', field), `${field}.thinking`),
      traceFile: str(obj, 'trace_file', field) ?? traceFile,
    },
  };
}
