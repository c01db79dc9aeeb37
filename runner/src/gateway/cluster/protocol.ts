// What the runner and the in-cluster gateway (the same gateway program, run as a Deployment
// in the run's namespace: docs/gateway.md "Kubernetes") agree on: the Pod's ports, where its
// configuration is mounted, and the admin API the runner drives through the API server's pod
// proxy (register a container's tokens, end a container and take its record, read the counts).
import type { BudgetBreach, RunBudget } from '../../plan/budget.js';
import type { GatewayPlan } from '../../plan/gateway.js';
import type { PriceTable } from '../../tokens/index.js';
import type { GatewayFailure, GatewayStats } from '../server.js';
import type { Grant } from '../tokens.js';

/** The port scenario Pods reach through the Service (the Service's port is the same). */
export const SERVE_PORT = 8080;
/** The admin port: reached only through the API server's pod proxy, with the admin token. */
export const ADMIN_PORT = 8081;
/** Where the gateway's Secret is mounted; CONFIG_KEY is its one key. */
export const CONFIG_DIR = '/run/gaia2-gateway';
export const CONFIG_KEY = 'config.json';
/** The bundle in the image (scripts/image-bundles.mjs builds it from pod-main.ts). */
export const GATEWAY_BUNDLE = '/opt/gaia2/model-gateway.mjs';
/** Header carrying the admin token. */
export const ADMIN_HEADER = 'x-gaia2-gateway-admin';

/** The gateway's configuration, as the Secret holds it (keys included: only the Secret has them). */
export interface PodGatewayConfig {
  upstreams: Array<{ id: string; provider: string; base: string; key: string | null }>;
  plan: Pick<GatewayPlan, 'limits' | 'retryAttempts' | 'retryBudgetSeconds'> & Partial<Pick<GatewayPlan, 'allowProviderTools'>>;
  prices: PriceTable | null;
  /** Replaying: records come with each container's registration, no provider is called. */
  replay: boolean;
  adminToken: string;
  backoff?: { baseDelayMs: number; maxDelayMs: number };
  /** The run's spend caps ([run] max_cost_usd, …): counted and enforced by this gateway. */
  budget?: RunBudget;
}

/** GET /spend: the caps met so far, the whole run's and each container's own. */
export interface SpendAnswer {
  run: BudgetBreach | null;
  containers: Record<string, BudgetBreach>;
}

/** POST /containers: a container's tokens, and its recorded traffic when replaying. */
export interface RegisterBody {
  tokens: Array<{ token: string; grant: Omit<Grant, 'dir'> }>;
  replayRecord?: string | null;
}

/** POST /containers/finish: the container's tokens end; its record comes back. */
export interface FinishBody {
  container: string;
}

export interface FinishAnswer {
  /** The container's model_traffic.jsonl text ('' when it made no request). */
  record: string;
  failure: GatewayFailure | null;
  stats: GatewayStats;
}
