// The gateway of one run (docs/gateway.md): decides whether the run uses it and starts it. On
// a backend that runs it beside its units (capabilities.gatewayBesideUnits, a cluster) it runs
// there (cluster/run-gateway.ts); elsewhere on the
// runner's loopback, which the backend makes reachable from the units the way it relays any
// host-loopback service (a relay on the bridge gateway for a local engine, on the routed
// address for a remote one). It points every model route's base-URL variables at it and hands
// each container its own tokens. The real keys stay in this process (or the cluster's Secret).
import { hasBudget } from '../plan/budget.js';
import { SpendBook } from './spend.js';
import { ConfigError } from '../plan/errors.js';
import { GATEWAY_DEFAULTS, type GatewayPlan } from '../config/gateway.js';
import { providerToolsAllowed } from '../plan/gateway.js';
import { engineNetwork, sealedNetwork, type RunPlan } from '../plan/plan.js';
import { detectProfile } from '../env/profiles.js';
import { rewriteLoopback, type ContainerEnvBase, type ModelRoute } from '../env/container-env.js';
import type { UnitBackend } from '../engine/index.js';
import { loadPriceTable, type PriceTable } from '../tokens/index.js';
import { kindOf } from './api-kinds.js';
import { replayFrom } from './replay.js';
import { gatewayRecordOf, pointRoutesAt, upstreamsOf, type RunGateway } from './run-routes.js';
import { startGateway } from './server.js';

/** Whether the plan's run goes through the gateway, and why not when it does not. */
export function gatewayDecision(plan: RunPlan, routes: readonly ModelRoute[]): { on: boolean; reason?: string } {
  const g = plan.gateway ?? GATEWAY_DEFAULTS;
  if (g.mode === 'off') return { on: false, reason: 'turned off ([gateway].enabled = false / --no-gateway)' };
  const profile = detectProfile(plan.agent.image);
  const unknown = routes.find((r) => !kindOf(r.provider, r.baseUrl));
  if (g.mode === 'on') {
    if (unknown) throw new ConfigError(`the model gateway does not know provider "${unknown.provider}" (${unknown.role})`);
    return { on: true };
  }
  if (routes.length === 0) return { on: false, reason: 'no model is called' };
  if (profile.name !== 'gaia2-runner') return { on: false, reason: `reference image profile "${profile.name}": its programs take keys directly, as the reference runs them` };
  if (unknown) return { on: false, reason: `provider "${unknown.provider}" (${unknown.role}) is not one the gateway knows` };
  return { on: true };
}

/** The price table the record's costs use (null: a broken price file, reported by the report). */
export function recordPrices(): PriceTable | null {
  try {
    return loadPriceTable();
  } catch {
    return null; // the record keeps the tokens
  }
}

export interface StartGatewayOptions {
  /** The run's id: the in-cluster gateway's objects carry it, so a crashed run's are cleaned up with its units. */
  runId: string;
  log?: (l: string) => void;
  backoff?: { baseDelayMs: number; maxDelayMs: number };
  /** The run's engine: one that declares gatewayBesideUnits gets the gateway in its cluster. */
  engine?: UnitBackend;
}

/**
 * Starts the run's gateway when the plan uses one and rewrites `base.env` to point at it; null
 * (and `base` untouched, keys in it) in direct mode. On a backend that declares
 * gatewayBesideUnits the gateway runs in its cluster (cluster/run-gateway.ts); elsewhere on
 * this machine's loopback.
 */
export async function startRunGateway(plan: RunPlan, base: ContainerEnvBase, o: StartGatewayOptions): Promise<RunGateway | null> {
  const g: GatewayPlan = plan.gateway ?? GATEWAY_DEFAULTS;
  const ups = upstreamsOf(base.routes);
  if (o.engine?.capabilities.gatewayBesideUnits) {
    // loaded only here: the Kubernetes client is tens of megabytes a local run never needs
    const { startClusterGateway } = await import('./cluster/run-gateway.js');
    return startClusterGateway(plan, base, ups, { ...o, gatewayPlan: g, prices: recordPrices() });
  }
  const { upstreams, byRole, roles } = ups;
  const replay = g.replay ? replayFrom(g.replay) : null;
  /** container → its record's key, so its replayed record leaves memory when it ends */
  const recordKeys = new Map<string, string>();
  const prices = recordPrices();
  const spend = hasBudget(plan.run.budget) ? new SpendBook(plan.run.budget) : null;
  const gateway = await startGateway({
    upstreams,
    plan: { ...g, allowProviderTools: providerToolsAllowed(g, sealedNetwork(plan.run.network)) },
    prices,
    replay,
    spend,
    ...(o.backoff ? { backoff: o.backoff } : {}),
    ...(o.log ? { log: o.log } : {}),
  });
  const bridged = engineNetwork(plan.run.network) === 'bridge';
  const routeOf = new Map(base.routes.map((r) => [r.role, r]));
  pointRoutesAt(base, byRole, (u) => (bridged ? rewriteLoopback(gateway.baseUrl(u.id)) : gateway.baseUrl(u.id)));
  const record = gatewayRecordOf(g.replay, ups);
  o.log?.(
    g.replay
      ? `Model gateway: replaying ${g.replay} (no provider is called)`
      : `Model gateway on 127.0.0.1:${gateway.port}: ${upstreams.map((u) => `${u.provider} (${(roles.get(u.id) ?? []).join(', ')})`).join('; ')}; keys stay on this machine`,
  );
  return {
    record,
    async tokensFor(unit) {
      const env: Record<string, string> = {};
      recordKeys.set(unit.container, unit.recordKey);
      for (const [role, u] of byRole) {
        const token = gateway.tokens.issue({ runId: unit.runId, container: unit.container, role, upstream: u.id, dir: unit.dir, scenario: unit.scenario, runIndex: unit.runIndex, recordKey: unit.recordKey });
        for (const v of routeOf.get(role)!.keyVars) env[v] = token;
      }
      return env;
    },
    async finish(container) {
      gateway.tokens.revoke(container);
      await gateway.endRun(container);
      const key = recordKeys.get(container);
      recordKeys.delete(container);
      if (key !== undefined) replay?.forget(key);
      await gateway.recorder.flush();
      spend?.forget(container);
      return gateway.failureOf(container);
    },
    stats: () => gateway.stats(),
    ...(spend ? { overBudget: (c: string) => spend.over(c), runOverBudget: () => spend.runOver() } : {}),
    close: () => gateway.close(),
  };
}
