// Which engine answers the soft checks: a chat model over the provider layer (llm.ts), or the
// TypeSafe scoring service (typesafe.ts) when the judge's provider is "typesafe". One choice
// point for the daemon (from GAIA2_JUDGE_*) and for the host's offline re-judge.
import { parseProvider } from '../llm/config.js';
import type { ExtraBody } from '../llm/extra-body.js';
import { createJudgeLlm, type JudgeLlm } from './llm.js';
import { createTypesafeJudgeLlm, parseTypesafeOptions, TYPESAFE_PROVIDER } from './typesafe.js';

export interface JudgeBackendConfig {
  provider: string;
  model: string;
  apiKey?: string;
  baseUrl?: string;
  extraBody?: ExtraBody;
  traceFile?: string;
  /** Names used in errors: the provider and extra_body settings as the user wrote them. */
  labels: { provider: string; extraBody: string };
}

export const isTypesafeProvider = (provider: string | undefined): boolean => (provider ?? '').trim().toLowerCase() === TYPESAFE_PROVIDER;

/** The judge's engine; configuration errors (bad provider, options, missing key) throw at once. */
export function createJudgeBackend(cfg: JudgeBackendConfig): JudgeLlm {
  if (isTypesafeProvider(cfg.provider)) {
    // extra_body configures the adapter here (threshold, timeout); it is not sent.
    return createTypesafeJudgeLlm({ model: cfg.model, apiKey: cfg.apiKey, baseUrl: cfg.baseUrl, options: parseTypesafeOptions(cfg.extraBody, cfg.labels.extraBody) });
  }
  return createJudgeLlm({
    provider: parseProvider(cfg.provider, cfg.labels.provider),
    model: cfg.model,
    apiKey: cfg.apiKey,
    baseUrl: cfg.baseUrl,
    ...(cfg.extraBody ? { extraBody: cfg.extraBody } : {}),
    ...(cfg.traceFile ? { traceFile: cfg.traceFile } : {}),
  });
}
