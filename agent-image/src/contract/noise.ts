// The Noise phase's settings, sent by the runner as one JSON value in GAIA2_NOISE and read by
// the world daemon. Names and defaults are the reference's (ARE ToolAugmentationConfig and
// EnvEventsConfig, as its noise phase sets them); `seed` of tool augmentation is ours (the
// reference leaves its per-tool failure generators unseeded, so its failures do not repeat).

import { ENV } from './paths.js';

export const NOISE_ENV = ENV.noise;

/** Tool augmentation: random tool failures, renamed tools, rewritten tool descriptions. */
export interface ToolAugmentationSettings {
  /** Chance that one agent app command fails before it runs (0..1). */
  tool_failure_probability: number;
  /** Expose tools under the scenario's augmentation_data.tool_names_mapping names. */
  apply_tool_name_augmentation: boolean;
  /** Show the scenario's augmentation_data.tool_descriptions_mapping descriptions. */
  apply_tool_description_augmentation: boolean;
  /** Seed of the failure draws (one stream per tool). */
  seed: number;
}

/** Environment events: background activity sampled from the scenario's universe data. */
export interface EnvEventsSettings {
  num_env_events_per_minute: number;
  env_events_seed: number;
  n_message_events_per_conversation: number;
  n_item_events_per_product: number;
  /** Relative share of the events per app class (canonical reference class names). */
  weight_per_app_class: Record<string, number>;
}

export interface NoiseSettings {
  tool_augmentation: ToolAugmentationSettings | null;
  env_events: EnvEventsSettings | null;
}

export const DEFAULT_TOOL_AUGMENTATION: ToolAugmentationSettings = {
  tool_failure_probability: 0.1,
  apply_tool_name_augmentation: true,
  apply_tool_description_augmentation: true,
  seed: 0,
};

export const DEFAULT_ENV_EVENTS: EnvEventsSettings = {
  num_env_events_per_minute: 10,
  env_events_seed: 0,
  n_message_events_per_conversation: 4,
  n_item_events_per_product: 2,
  weight_per_app_class: { EmailClientApp: 1, ApartmentListingApp: 1, MessagingApp: 1, MessagingAppV2: 1, ShoppingApp: 1 },
};

/** What the reference's noise phase runs with. */
export const DEFAULT_NOISE: NoiseSettings = { tool_augmentation: DEFAULT_TOOL_AUGMENTATION, env_events: DEFAULT_ENV_EVENTS };

export class NoiseSettingsError extends Error {
  override name = 'NoiseSettingsError';
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function fields<T extends object>(raw: unknown, dflt: T, where: string): T {
  if (!isObj(raw)) throw new NoiseSettingsError(`${where} must be an object`);
  const out: Record<string, unknown> = { ...(dflt as Record<string, unknown>) };
  for (const [k, v] of Object.entries(raw)) {
    if (!(k in dflt)) throw new NoiseSettingsError(`${where}.${k} is not a known setting (known: ${Object.keys(dflt).join(', ')})`);
    const want = (dflt as Record<string, unknown>)[k];
    if (typeof want === 'boolean' && typeof v !== 'boolean') throw new NoiseSettingsError(`${where}.${k} must be true or false`);
    if (typeof want === 'number' && (typeof v !== 'number' || !Number.isFinite(v) || v < 0))
      throw new NoiseSettingsError(`${where}.${k} must be a number >= 0`);
    if (isObj(want)) {
      if (!isObj(v) || Object.values(v).some((w) => typeof w !== 'number' || !Number.isFinite(w) || w < 0))
        throw new NoiseSettingsError(`${where}.${k} must map app class names to numbers >= 0`);
    }
    out[k] = v;
  }
  return out as T;
}

/**
 * Validates a noise settings value (parsed JSON). Missing keys take the reference defaults;
 * a table given as null is switched off. `where` names the source in errors.
 */
export function parseNoiseSettings(raw: unknown, where: string = NOISE_ENV): NoiseSettings {
  if (!isObj(raw)) throw new NoiseSettingsError(`${where} must be a JSON object`);
  for (const k of Object.keys(raw))
    if (k !== 'tool_augmentation' && k !== 'env_events') throw new NoiseSettingsError(`${where}.${k} is not a known setting (known: tool_augmentation, env_events)`);
  const ta = raw.tool_augmentation === undefined ? DEFAULT_TOOL_AUGMENTATION : raw.tool_augmentation === null ? null : fields(raw.tool_augmentation, DEFAULT_TOOL_AUGMENTATION, `${where}.tool_augmentation`);
  const ev = raw.env_events === undefined ? DEFAULT_ENV_EVENTS : raw.env_events === null ? null : fields(raw.env_events, DEFAULT_ENV_EVENTS, `${where}.env_events`);
  if (ta && ta.tool_failure_probability > 1) throw new NoiseSettingsError(`${where}.tool_augmentation.tool_failure_probability must be between 0 and 1`);
  for (const k of ['seed'] as const) if (ta && !Number.isInteger(ta[k])) throw new NoiseSettingsError(`${where}.tool_augmentation.${k} must be an integer`);
  if (ev) {
    for (const k of ['env_events_seed', 'n_message_events_per_conversation', 'n_item_events_per_product'] as const)
      if (!Number.isInteger(ev[k])) throw new NoiseSettingsError(`${where}.env_events.${k} must be an integer`);
    if (ev.n_message_events_per_conversation < 1 || ev.n_item_events_per_product < 1)
      throw new NoiseSettingsError(`${where}.env_events: n_message_events_per_conversation and n_item_events_per_product must be >= 1`);
  }
  return { tool_augmentation: ta, env_events: ev };
}

/** Reads GAIA2_NOISE: unset or empty → null (standard phase). */
export function noiseFromEnv(env: Record<string, string | undefined>): NoiseSettings | null {
  const text = env[NOISE_ENV]?.trim();
  if (!text) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new NoiseSettingsError(`${NOISE_ENV} is not valid JSON: ${(e as Error).message}`);
  }
  return parseNoiseSettings(raw);
}
