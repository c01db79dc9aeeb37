// The model gateway's settings as the plan carries them (config/gateway.ts reads them from TOML
// and flags; docs/gateway.md).
/** Provider-side tools that reach the web, one name per capability (gateway/provider-tools.ts maps each provider's spelling). */
export const PROVIDER_TOOLS = ['web_search', 'web_fetch', 'code_execution'] as const;
export type ProviderTool = (typeof PROVIDER_TOOLS)[number];

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
  /**
   * Provider-side tools that reach the web (gateway/provider-tools.ts) the gateway lets through;
   * 'all' when the run's network is open. Others are refused (403) and recorded.
   */
  allowProviderTools: ProviderTool[] | 'all';
}

export const NO_LIMITS: LimitValues = { maxConcurrent: null, requestsPerMinute: null, tokensPerMinute: null };

export const GATEWAY_DEFAULTS: GatewayPlan = {
  mode: 'auto',
  replay: null,
  retryAttempts: 10,
  retryBudgetSeconds: 600,
  limits: { default: NO_LIMITS, byKey: {} },
  allowProviderTools: [],
};

/** The provider tools a run lets through: an unsealed run's agent reaches the web anyway, so all of them. */
export function providerToolsAllowed(g: Pick<GatewayPlan, 'allowProviderTools'>, sealed: boolean): GatewayPlan['allowProviderTools'] {
  return sealed ? g.allowProviderTools : 'all';
}
