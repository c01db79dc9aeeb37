// The gateway of one run (docs/gateway.md): decides whether the run uses it, starts it on the
// runner's loopback (the backend makes it reachable from the units the way it relays any
// host-loopback service: a relay on the bridge gateway for a local engine, on the routed
// address for a remote one), points every model route's base-URL variables at it and hands
// each container its own tokens. The real keys stay in this process.
import { ConfigError } from '../plan/errors.js';
import { GATEWAY_DEFAULTS, type GatewayPlan } from '../config/gateway.js';
import type { RunPlan } from '../plan/plan.js';
import { detectProfile } from '../env/profiles.js';
import { rewriteLoopback, type ContainerEnvBase, type ModelRoute } from '../env/container-env.js';
import { loadPriceTable } from '../pricing/index.js';
import { kindOf } from './api-kinds.js';
import { replayFrom } from './replay.js';
import { startGateway, type Gateway, type GatewayFailure, type GatewayStats, type Upstream } from './server.js';
import type { Role } from './tokens.js';

/** How the run's model traffic flows, as run_config.json records it. */
export interface GatewayRecord {
  mode: 'gateway' | 'direct' | 'replay';
  /** Why direct, when the gateway was not asked for explicitly. */
  reason?: string;
  replay_of?: string;
  upstreams?: Array<{ id: string; provider: string; base: string; roles: Role[] }>;
}

export interface RunGateway {
  readonly gateway: Gateway;
  readonly record: GatewayRecord;
  /** Token variables of one container (merged into its environment). */
  tokensFor(unit: { container: string; runId: string; dir: string | null; scenario: string; runIndex: number | null; recordKey: string }): Record<string, string>;
  /** The container's run ended: its tokens stop working; what it could not get answered, if anything. */
  finish(container: string): GatewayFailure | null;
  stats(): GatewayStats;
  close(): Promise<void>;
}

/** Whether the plan's run goes through the gateway, and why not when it does not. */
export function gatewayDecision(plan: RunPlan, routes: readonly ModelRoute[]): { on: boolean; reason?: string } {
  const g = plan.gateway ?? GATEWAY_DEFAULTS;
  if (g.mode === 'off') return { on: false, reason: 'turned off ([gateway].enabled = false / --no-gateway)' };
  const profile = detectProfile(plan.agent.image);
  const k8s = plan.run.backend.kind === 'kubernetes';
  const unknown = routes.find((r) => !kindOf(r.provider, r.baseUrl));
  if (g.mode === 'on') {
    if (k8s) throw new ConfigError('[gateway].enabled = true: the model gateway does not run on the kubernetes backend yet (docs/gateway.md); set [gateway].enabled = false');
    if (unknown) throw new ConfigError(`the model gateway does not know provider "${unknown.provider}" (${unknown.role})`);
    return { on: true };
  }
  if (routes.length === 0) return { on: false, reason: 'no model is called' };
  if (k8s) return { on: false, reason: 'the kubernetes backend has no in-cluster gateway yet: keys go to the Pods (docs/gateway.md)' };
  if (profile.name !== 'gaia2-runner') return { on: false, reason: `reference image profile "${profile.name}": its programs take keys directly, as the reference runs them` };
  if (unknown) return { on: false, reason: `provider "${unknown.provider}" (${unknown.role}) is not one the gateway knows` };
  return { on: true };
}

/** One upstream per distinct (provider, base URL, key); ids are path segments. */
function upstreamsOf(routes: readonly ModelRoute[]): { upstreams: Upstream[]; byRole: Map<Role, Upstream>; roles: Map<string, Role[]> } {
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

/**
 * Starts the run's gateway when the plan uses one and rewrites `base.env` to point at it; null
 * (and `base` untouched, keys in it) in direct mode.
 */
export async function startRunGateway(plan: RunPlan, base: ContainerEnvBase, o: { log?: (l: string) => void; backoff?: { baseDelayMs: number; maxDelayMs: number } } = {}): Promise<RunGateway | null> {
  const g: GatewayPlan = plan.gateway ?? GATEWAY_DEFAULTS;
  const { upstreams, byRole, roles } = upstreamsOf(base.routes);
  const gateway = await startGateway({
    upstreams,
    plan: g,
    prices: (() => {
      try {
        return loadPriceTable();
      } catch {
        return null; // a broken price file is reported by the report; the record keeps tokens
      }
    })(),
    replay: g.replay ? replayFrom(g.replay) : null,
    ...(o.backoff ? { backoff: o.backoff } : {}),
    ...(o.log ? { log: o.log } : {}),
  });
  const bridged = plan.run.network === 'bridge';
  const routeOf = new Map(base.routes.map((r) => [r.role, r]));
  for (const r of base.routes) {
    const u = byRole.get(r.role)!;
    const url = gateway.baseUrl(u.id);
    for (const v of r.baseUrlVars) base.env[v] = bridged ? rewriteLoopback(url) : url;
    for (const v of r.keyVars) delete base.env[v];
  }
  // With proxies configured, the gateway (on the runner's machine) must be reached directly.
  for (const k of ['NO_PROXY', 'no_proxy']) {
    const host = new URL(bridged ? rewriteLoopback(gateway.baseUrl(upstreams[0]?.id ?? '')) : gateway.baseUrl(upstreams[0]?.id ?? '')).hostname;
    if (base.env[k] !== undefined && !base.env[k]!.split(',').includes(host)) base.env[k] = [base.env[k], host].filter(Boolean).join(',');
  }
  const record: GatewayRecord = {
    mode: g.replay ? 'replay' : 'gateway',
    ...(g.replay ? { replay_of: g.replay } : {}),
    upstreams: upstreams.map((u) => ({ id: u.id, provider: u.provider, base: u.base, roles: roles.get(u.id) ?? [] })),
  };
  o.log?.(
    g.replay
      ? `Model gateway: replaying ${g.replay} (no provider is called)`
      : `Model gateway on 127.0.0.1:${gateway.port}: ${upstreams.map((u) => `${u.provider} (${(roles.get(u.id) ?? []).join(', ')})`).join('; ')}; keys stay on this machine`,
  );
  return {
    gateway,
    record,
    tokensFor(unit) {
      const env: Record<string, string> = {};
      for (const [role, u] of byRole) {
        const token = gateway.tokens.issue({ runId: unit.runId, container: unit.container, role, upstream: u.id, dir: unit.dir, scenario: unit.scenario, runIndex: unit.runIndex, recordKey: unit.recordKey });
        for (const v of routeOf.get(role)!.keyVars) env[v] = token;
      }
      return env;
    },
    finish(container) {
      gateway.tokens.revoke(container);
      return gateway.failureOf(container);
    },
    stats: () => gateway.stats(),
    close: () => gateway.close(),
  };
}
