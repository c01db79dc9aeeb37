// The Agent2Agent variables of a container: GAIA2_A2A (JSON, no secret in it),
// GAIA2_A2A_BASE_URL (its own variable so a host-loopback URL is rewritten and relayed like
// BASE_URL) and GAIA2_A2A_API_KEY, which the entrypoint leaves out of the agent's environment
// (only the world daemon, where the app agents run, sees it), registered for redaction.
import { ENV } from '@gaia2/contract/paths';
import type { RunPlan } from '../plan/plan.js';
import { registerSecret } from '../secrets/redact.js';
import { lookupProviderKey } from './providers.js';
import type { ModelRoute } from './model-route.js';

export function addAgentToAgentEnv(
  plan: RunPlan,
  env: Record<string, string>,
  hostEnv: Record<string, string | undefined>,
  url: (u: string) => string,
  notices: string[],
  direct = true,
): ModelRoute | null {
  const a = plan.agent2agent;
  if (!a) return null;
  env[ENV.a2a] = JSON.stringify({
    app_prop: a.appProp,
    ...(a.seed !== null ? { seed: a.seed } : {}),
    provider: a.provider,
    model: a.model,
    thinking: plan.agent.thinking,
  });
  if (a.baseUrl && direct) env[ENV.a2aBaseUrl] = url(a.baseUrl);
  let key = a.apiKey;
  if (!key) {
    key = lookupProviderKey(a.provider, hostEnv);
    if (key) notices.push(`App agents' API key not given explicitly; using ${key.source}`);
  }
  if (key) {
    registerSecret(key.value);
    if (direct) env[ENV.a2aApiKey] = key.value;
  }
  return { role: 'app_agent', provider: a.provider, model: a.model, baseUrl: a.baseUrl, key, baseUrlVars: [ENV.a2aBaseUrl], keyVars: [ENV.a2aApiKey] };
}
