// The Noise phase's settings from a TOML [noise] table or the --noise flags, as the image's
// GAIA2_NOISE value (agent-image/src/contract/noise.ts). Defaults are the reference's noise
// phase: 10% tool failures, name/description augmentation on, 10 background events per
// minute, seed 0.
import { z } from 'zod';
import { DEFAULT_ENV_EVENTS, DEFAULT_TOOL_AUGMENTATION, type NoiseSettings } from '@gaia2/contract/noise';
import { ConfigError } from '../plan/errors.js';
import { bool, int, num } from '../plan/toml-values.js';

export const NoiseTable = z.strictObject({
  /** false: keep the table but run the standard phase. */
  enabled: bool,
  /** Seed of both the failure draws and the background events (each overridable). */
  seed: int,
  tool_augmentation: bool,
  tool_failure_probability: num,
  tool_failure_seed: int,
  apply_tool_name_augmentation: bool,
  apply_tool_description_augmentation: bool,
  env_events: bool,
  num_env_events_per_minute: num,
  env_events_seed: int,
  n_message_events_per_conversation: int,
  n_item_events_per_product: int,
  weight_per_app_class: z.record(z.string(), z.union([z.bigint(), z.number()], { error: 'must be a number' }).transform((n) => Number(n)), { error: 'must be a table of numbers' }).optional(),
});
export type NoiseTableData = z.output<typeof NoiseTable>;

function check(ok: boolean, where: string, what: string): void {
  if (!ok) throw new ConfigError(`${where} ${what}`);
}

/** [noise] (or flags mapped onto the same names) → settings; null when switched off. */
export function noiseFromTable(t: NoiseTableData, where = '[noise]'): NoiseSettings | null {
  if (t.enabled === false) return null;
  const at = (k: string) => (where.startsWith('[') ? `${where}.${k}` : `--${k.replace(/_/g, '-')}`);
  const seed = t.seed ?? 0;
  const p = t.tool_failure_probability ?? DEFAULT_TOOL_AUGMENTATION.tool_failure_probability;
  check(p >= 0 && p <= 1, at('tool_failure_probability'), 'must be between 0 and 1');
  const rate = t.num_env_events_per_minute ?? DEFAULT_ENV_EVENTS.num_env_events_per_minute;
  check(rate >= 0, at('num_env_events_per_minute'), 'must be >= 0');
  for (const k of ['seed', 'tool_failure_seed', 'env_events_seed'] as const) check((t[k] ?? 0) >= 0, at(k), 'must be >= 0');
  for (const k of ['n_message_events_per_conversation', 'n_item_events_per_product'] as const) check((t[k] ?? 1) >= 1, at(k), 'must be >= 1');
  for (const [cls, w] of Object.entries(t.weight_per_app_class ?? {})) check(w >= 0, at(`weight_per_app_class.${cls}`), 'must be >= 0');
  return {
    tool_augmentation:
      t.tool_augmentation === false
        ? null
        : {
            tool_failure_probability: p,
            apply_tool_name_augmentation: t.apply_tool_name_augmentation ?? true,
            apply_tool_description_augmentation: t.apply_tool_description_augmentation ?? true,
            seed: t.tool_failure_seed ?? seed,
          },
    env_events:
      t.env_events === false
        ? null
        : {
            num_env_events_per_minute: rate,
            env_events_seed: t.env_events_seed ?? seed,
            n_message_events_per_conversation: t.n_message_events_per_conversation ?? DEFAULT_ENV_EVENTS.n_message_events_per_conversation,
            n_item_events_per_product: t.n_item_events_per_product ?? DEFAULT_ENV_EVENTS.n_item_events_per_product,
            weight_per_app_class: t.weight_per_app_class ?? { ...DEFAULT_ENV_EVENTS.weight_per_app_class },
          },
  };
}

export interface NoiseFlags {
  noise?: boolean;
  noiseSeed?: string;
  toolFailureProbability?: string;
  envEventsPerMinute?: string;
}

function flagNumber(v: string | undefined, flag: string, integer: boolean): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v.trim());
  if (v.trim() === '' || !Number.isFinite(n) || (integer && !Number.isInteger(n)))
    throw new ConfigError(`${flag} must be ${integer ? 'an integer' : 'a number'} (got ${JSON.stringify(v)})`);
  return n;
}

/** --noise [--noise-seed N] [--tool-failure-probability P] [--env-events-per-minute R]; null without --noise. */
export function noiseFromFlags(f: NoiseFlags): NoiseSettings | null {
  const tuned = f.noiseSeed ?? f.toolFailureProbability ?? f.envEventsPerMinute;
  if (!f.noise) {
    if (tuned !== undefined) throw new ConfigError('--noise-seed, --tool-failure-probability and --env-events-per-minute need --noise');
    return null;
  }
  return noiseFromTable(
    {
      seed: flagNumber(f.noiseSeed, '--noise-seed', true),
      tool_failure_probability: flagNumber(f.toolFailureProbability, '--tool-failure-probability', false),
      num_env_events_per_minute: flagNumber(f.envEventsPerMinute, '--env-events-per-minute', false),
    },
    'flags',
  );
}
