// How a container reaches a model: the role, the endpoint and key, and the variables that carry
// them (filled by container-env.ts, or by the model gateway instead).
import type { SecretRef } from '../plan/plan.js';

/** Who calls a model from inside a container. */
export type ModelRole = 'agent' | 'app_agent' | 'judge';

/**
 * One role's model access: the provider endpoint and key as configured, and the variables that
 * carry them into the container. With the model gateway the runner fills these variables with
 * the gateway's URL and a per-container token instead (runner/src/gateway).
 */
export interface ModelRoute {
  role: ModelRole;
  provider: string;
  model: string | null;
  /** As configured (not rewritten for the container); null = the provider's default. */
  baseUrl: string | null;
  key: SecretRef | null;
  baseUrlVars: string[];
  keyVars: string[];
}
