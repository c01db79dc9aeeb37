// A run record's gateway_options → the plan's gateway settings (rerun).
import { GATEWAY_DEFAULTS, PROVIDER_TOOLS, type GatewayPlan, type ProviderTool } from '../plan/gateway.js';

/** The recorded gateway settings (absent in records written before the gateway). */
export function gatewayOf(v: unknown): { gateway?: GatewayPlan } {
  if (!v || typeof v !== 'object') return {};
  const g = v as Record<string, unknown>;
  const mode = g.mode === 'on' || g.mode === 'off' || g.mode === 'auto' ? g.mode : GATEWAY_DEFAULTS.mode;
  const limits = g.limits && typeof g.limits === 'object' ? (g.limits as GatewayPlan['limits']) : GATEWAY_DEFAULTS.limits;
  return {
    gateway: {
      // A rerun calls the providers again: the replay source of the original is not repeated.
      mode: mode === 'on' && typeof g.replay === 'string' ? 'auto' : mode,
      replay: null,
      retryAttempts: typeof g.retry_attempts === 'number' ? g.retry_attempts : GATEWAY_DEFAULTS.retryAttempts,
      retryBudgetSeconds: typeof g.retry_budget_seconds === 'number' ? g.retry_budget_seconds : GATEWAY_DEFAULTS.retryBudgetSeconds,
      limits,
      allowProviderTools: g.allow_provider_tools === 'all' ? 'all' : Array.isArray(g.allow_provider_tools) ? g.allow_provider_tools.filter((t): t is ProviderTool => (PROVIDER_TOOLS as readonly unknown[]).includes(t)) : [],
    },
  };
}
