// What the run's gateway is to the orchestrator, wherever it runs (on the runner's machine:
// run-gateway.ts; in the cluster: cluster/run-gateway.ts): its record in run_config.json, the
// per-container tokens and results, and the routes' upstreams and variables pointing at it.
import type { BudgetBreach } from '../plan/budget.js';
import { ConfigError } from '../plan/errors.js';
import type { ContainerEnvBase, ModelRoute } from '../env/container-env.js';
import { kindOf } from './api-kinds.js';
import type { GatewayFailure, GatewayStats, Upstream } from './server.js';
import type { Role } from './tokens.js';

/** How the run's model traffic flows, as run_config.json records it. */
export interface GatewayRecord {
  mode: 'gateway' | 'direct' | 'replay';
  /** Why direct, when the gateway was not asked for explicitly. */
  reason?: string;
  replay_of?: string;
  upstreams?: Array<{ id: string; provider: string; base: string; roles: Role[] }>;
}

/** The container a token is for (Grant without the record directory). */
export interface TokenUnit {
  container: string;
  runId: string;
  dir: string | null;
  scenario: string;
  runIndex: number | null;
  recordKey: string;
}

export interface RunGateway {
  readonly record: GatewayRecord;
  /** Token variables of one container (merged into its environment). */
  tokensFor(unit: TokenUnit): Promise<Record<string, string>>;
  /**
   * The container's run ended: its tokens stop working, its traffic record is complete in
   * `dir`; what it could not get answered, if anything.
   */
  finish(container: string, dir: string | null): Promise<GatewayFailure | null>;
  stats(): GatewayStats;
  /**
   * The budget cap a container's agent side has met (its own or the whole run's), and the
   * whole run's alone; absent on a gateway that keeps no budget (plan/budget.ts).
   */
  overBudget?(container: string): BudgetBreach | null;
  runOverBudget?(): BudgetBreach | null;
  /**
   * The same as overBudget, asked afresh at a run's end, where overBudget may answer from a
   * count read a moment ago (a gateway in the cluster); absent where overBudget is always current.
   */
  overBudgetNow?(container: string): Promise<BudgetBreach | null>;
  close(): Promise<void>;
}

export interface RunUpstreams {
  upstreams: Upstream[];
  byRole: Map<Role, Upstream>;
  roles: Map<string, Role[]>;
}

/**
 * Points every model route's base-URL variables at the gateway (`urlOf` an upstream as the
 * units reach it) and takes the keys out of the units' environment; the gateway's host goes
 * into NO_PROXY when proxies are configured (it must be reached directly).
 */
export function pointRoutesAt(base: ContainerEnvBase, byRole: Map<Role, Upstream>, urlOf: (u: Upstream) => string): void {
  for (const r of base.routes) {
    const url = urlOf(byRole.get(r.role)!);
    for (const v of r.baseUrlVars) base.env[v] = url;
    for (const v of r.keyVars) delete base.env[v];
  }
  const first = byRole.values().next().value;
  if (!first) return;
  const host = new URL(urlOf(first)).hostname;
  for (const k of ['NO_PROXY', 'no_proxy'])
    if (base.env[k] !== undefined && !base.env[k]!.split(',').includes(host)) base.env[k] = [base.env[k], host].filter(Boolean).join(',');
}

/** run_config.json's record of a gateway run. */
export function gatewayRecordOf(replay: string | null, u: RunUpstreams): GatewayRecord {
  return {
    mode: replay ? 'replay' : 'gateway',
    ...(replay ? { replay_of: replay } : {}),
    upstreams: u.upstreams.map((x) => ({ id: x.id, provider: x.provider, base: x.base, roles: u.roles.get(x.id) ?? [] })),
  };
}

/** One upstream per distinct (provider, base URL, key); ids are path segments. */
export function upstreamsOf(routes: readonly ModelRoute[]): RunUpstreams {
  const upstreams: Upstream[] = [];
  const byRole = new Map<Role, Upstream>();
  const roles = new Map<string, Role[]>();
  for (const r of routes) {
    const spec = kindOf(r.provider, r.baseUrl)!;
    const base = r.baseUrl ?? spec.defaultBase;
    if (!base) throw new ConfigError(`provider "${r.provider}" (${r.role}) needs a base URL: the model gateway forwards to it`);
    try {
      new URL(base);
    } catch {
      throw new ConfigError(`the ${r.role}'s base URL is not a URL: ${base}`);
    }
    const key = r.key?.value ?? null;
    let u = upstreams.find((x) => x.provider === r.provider && x.base === base && x.key === key);
    if (!u) {
      const stem = r.provider.toLowerCase().replace(/[^a-z0-9-]/g, '-');
      const id = upstreams.some((x) => x.id === stem) ? `${stem}-${upstreams.length + 1}` : stem;
      u = { id, provider: r.provider, spec, base, key };
      upstreams.push(u);
    }
    byRole.set(r.role, u);
    roles.set(u.id, [...(roles.get(u.id) ?? []), r.role]);
  }
  return { upstreams, byRole, roles };
}
