// The model gateway's settings (docs/gateway.md): whether the run's model traffic goes through
// the runner's gateway, the limits it enforces per provider (and model), its retry budget, and
// a finished run to replay instead of calling any provider. `[gateway]` and `[limits]` in the
// TOML, flags on the command line; everything is checked here so the gateway sees clean values.
import { z } from 'zod';
import { ConfigError } from '../plan/errors.js';

/** auto: on for our image on every backend (on Kubernetes in the cluster), off (direct keys) for reference images. */
import { GATEWAY_DEFAULTS, NO_LIMITS, PROVIDER_TOOLS, type GatewayMode, type GatewayPlan, type LimitValues } from '../plan/gateway.js';

export { GATEWAY_DEFAULTS, NO_LIMITS, type GatewayMode, type GatewayPlan, type LimitValues };

const posInt = z
  .bigint({ error: 'must be an integer' })
  .transform((n) => Number(n))
  .optional();

export const LimitEntryTable = z.strictObject({
  max_concurrent: posInt,
  requests_per_minute: posInt,
  tokens_per_minute: posInt,
});

/** `[limits]`: the default limits, and sub-tables per "provider" or "provider/model". */
export const LimitsTable = z
  .object({ max_concurrent: posInt, requests_per_minute: posInt, tokens_per_minute: posInt })
  .catchall(LimitEntryTable);

export const GatewayTable = z.strictObject({
  enabled: z.boolean({ error: 'must be true or false' }).optional(),
  replay: z.string({ error: 'must be a string' }).optional(),
  retry_attempts: posInt,
  retry_budget_seconds: posInt,
  allow_provider_tools: z.array(z.enum(PROVIDER_TOOLS, { error: `each must be one of ${PROVIDER_TOOLS.join(', ')}` })).optional(),
});

type LimitEntry = z.output<typeof LimitEntryTable>;

function limitValues(e: LimitEntry, where: string): LimitValues {
  const out: LimitValues = { ...NO_LIMITS };
  const set = (v: number | undefined, key: keyof LimitEntry, field: keyof LimitValues) => {
    if (v === undefined) return;
    if (v < 1) throw new ConfigError(`${where}.${key} must be at least 1 (leave it out for no limit)`);
    out[field] = v;
  };
  set(e.max_concurrent, 'max_concurrent', 'maxConcurrent');
  set(e.requests_per_minute, 'requests_per_minute', 'requestsPerMinute');
  set(e.tokens_per_minute, 'tokens_per_minute', 'tokensPerMinute');
  return out;
}

export interface GatewayInputs {
  table?: z.output<typeof GatewayTable>;
  limits?: z.output<typeof LimitsTable>;
  /** Command-line values, which win over the file's. */
  flags?: { enabled?: boolean; replay?: string; maxConcurrent?: number; rpm?: number; tpm?: number };
  /** Resolves a path relative to the config file (the replay directory). */
  path?: (raw: string, name: string) => string;
}

/** The checked gateway plan from the TOML tables and flags. */
export function resolveGateway(i: GatewayInputs): GatewayPlan {
  const t = i.table ?? {};
  const byKey: Record<string, LimitValues> = {};
  let def: LimitValues = { ...NO_LIMITS };
  if (i.limits) {
    const { max_concurrent, requests_per_minute, tokens_per_minute, ...rest } = i.limits;
    def = limitValues({ max_concurrent, requests_per_minute, tokens_per_minute }, '[limits]');
    for (const [key, entry] of Object.entries(rest)) {
      if (!/^[a-z][\w.-]*(\/.+)?$/i.test(key)) throw new ConfigError(`[limits."${key}"]: the name must be a provider ("anthropic") or "provider/model"`);
      byKey[key.toLowerCase()] = limitValues(entry as LimitEntry, `[limits."${key}"]`);
    }
  }
  const f = i.flags ?? {};
  const flagLimit = (v: number | undefined, flag: string, field: keyof LimitValues) => {
    if (v === undefined) return;
    if (!Number.isInteger(v) || v < 1) throw new ConfigError(`${flag} must be a positive integer`);
    def = { ...def, [field]: v };
  };
  flagLimit(f.maxConcurrent, '--max-concurrent-requests', 'maxConcurrent');
  flagLimit(f.rpm, '--requests-per-minute', 'requestsPerMinute');
  flagLimit(f.tpm, '--tokens-per-minute', 'tokensPerMinute');
  for (const [k, v] of [['retry_attempts', t.retry_attempts], ['retry_budget_seconds', t.retry_budget_seconds]] as const)
    if (v !== undefined && v < 1) throw new ConfigError(`[gateway].${k} must be at least 1`);
  const enabled = f.enabled ?? t.enabled;
  const replayRaw = f.replay ?? t.replay;
  const replay = replayRaw ? (i.path ? i.path(replayRaw, f.replay ? '--replay' : '[gateway].replay') : replayRaw) : null;
  if (replay && enabled === false) throw new ConfigError('--replay needs the gateway: it answers the model requests ([gateway].enabled = false / --no-gateway was set)');
  return {
    mode: replay ? 'on' : enabled === undefined ? 'auto' : enabled ? 'on' : 'off',
    replay,
    retryAttempts: t.retry_attempts ?? GATEWAY_DEFAULTS.retryAttempts,
    retryBudgetSeconds: t.retry_budget_seconds ?? GATEWAY_DEFAULTS.retryBudgetSeconds,
    limits: { default: def, byKey },
    allowProviderTools: [...new Set(t.allow_provider_tools ?? [])],
  };
}

/** The limits for one provider and model: the model's entry, else the provider's, else the default, per field. */
export function limitsFor(plan: GatewayPlan['limits'], provider: string, model: string | null): LimitValues {
  const p = plan.byKey[provider.toLowerCase()];
  const m = model ? plan.byKey[`${provider}/${model}`.toLowerCase()] : undefined;
  const pick = (k: keyof LimitValues) => m?.[k] ?? p?.[k] ?? plan.default[k];
  return { maxConcurrent: pick('maxConcurrent'), requestsPerMinute: pick('requestsPerMinute'), tokensPerMinute: pick('tokensPerMinute') };
}
