// The model gateway's settings as the plan carries them (config/gateway.ts reads them from TOML
// and flags; docs/gateway.md).
export type GatewayMode = 'auto' | 'on' | 'off';

/** How every per-container gateway token begins (backends keep such values per container). */
export const GATEWAY_TOKEN_PREFIX = 'g2gw-';

/** One provider's (or one model's) limits; null = no limit of that kind. */
export interface LimitValues {
  maxConcurrent: number | null;
  requestsPerMinute: number | null;
  tokensPerMinute: number | null;
}

export interface GatewayPlan {
  mode: GatewayMode;
  /** A finished run directory whose record answers every model request; null = live providers. */
  replay: string | null;
  /** Attempts per request upstream (first try included) before the gateway gives up. */
  retryAttempts: number;
  /** Seconds one request may spend retrying (waits included) before the gateway gives up. */
  retryBudgetSeconds: number;
  /** `default` applies to every provider; keys are "provider" or "provider/model". */
  limits: { default: LimitValues; byKey: Record<string, LimitValues> };
}

export const NO_LIMITS: LimitValues = { maxConcurrent: null, requestsPerMinute: null, tokensPerMinute: null };

export const GATEWAY_DEFAULTS: GatewayPlan = {
  mode: 'auto',
  replay: null,
  retryAttempts: 10,
  retryBudgetSeconds: 600,
  limits: { default: NO_LIMITS, byKey: {} },
};
