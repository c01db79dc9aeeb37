// The run's gateway on a backend that runs it beside its units (capabilities.gatewayBesideUnits:
// the kubernetes backend; docs/gateway.md "Kubernetes"): the same gateway
// program, run in the run's namespace as a Deployment behind a Service, its provider keys in a
// Secret. Scenario Pods get the Service's URL and per-container tokens; the runner registers
// those tokens with the gateway, takes each container's traffic record back into the run
// directory when the container's run ends, and reads the counts, all through the API server's
// pod proxy (admin API: pod-admin.ts). start/stop is this file's whole surface (the backend's
// run scope can call it later).
import { AppsV1Api } from '@kubernetes/client-node';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { appendFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { providerToolsAllowed, type GatewayPlan } from '../../plan/gateway.js';
import { sealedNetwork, type RunPlan } from '../../plan/plan.js';
import { ConfigError } from '../../plan/errors.js';
import type { ContainerEnvBase } from '../../env/container-env.js';
import type { UnitBackend } from '../../engine/index.js';
import { EngineError } from '../../engine/errors.js';
import { clusterOf } from '../../engine/kubernetes/cluster.js';
import { checkNoLoopback } from '../../engine/loopback-refusal.js';
import type { PriceTable } from '../../tokens/index.js';
import { redact } from '../../secrets/redact.js';
import { TRAFFIC_FILE } from '../record.js';
import { gatewayRecordOf, pointRoutesAt, type RunGateway, type RunUpstreams } from '../run-routes.js';
import { upstreamPath, type GatewayStats } from '../server.js';
import { newToken, type Grant } from '../tokens.js';
import { readReplayRecord } from '../replay.js';
import { AdminClient } from './admin-client.js';
import { GATEWAY_LABEL, gatewayDeploymentManifest, gatewayName, gatewaySecretManifest, gatewayServiceManifest, serviceOrigin } from './manifests.js';
import { labelValue } from '../../engine/kubernetes/manifests.js';
import type { FinishAnswer, SpendAnswer } from './protocol.js';
import { hasBudget } from '../../plan/budget.js';

export interface ClusterGatewayOptions {
  runId: string;
  log?: (l: string) => void;
  backoff?: { baseDelayMs: number; maxDelayMs: number };
  engine?: UnitBackend;
  gatewayPlan: GatewayPlan;
  prices: PriceTable | null;
}

const EMPTY_STATS: GatewayStats = { requests: 0, by_role: { agent: 0, app_agent: 0, judge: 0 }, queued_total: 0, throttled: 0, retried: 0, gave_up: 0, refused: 0, replayed: 0, over_budget: 0, spent: { tokens: 0, usd: 0 }, resumed: 0, broken: 0, providers: {} };
const STATS_EVERY_MS = 2000;
const SPEND_EVERY_MS = 1000;

export async function startClusterGateway(plan: RunPlan, base: ContainerEnvBase, ups: RunUpstreams, o: ClusterGatewayOptions): Promise<RunGateway> {
  const g = o.gatewayPlan;
  if (g.replay && !existsSync(g.replay)) throw new ConfigError(`--replay: ${g.replay} does not exist`);
  // A backend that creates nothing (--dry-run --manifests) has no API server: no gateway Pod either.
  const { settings, namespace, access, sealPeers } = clusterOf(o.engine);
  const runId = o.runId;
  const name = gatewayName(runId);
  const origin = serviceOrigin(name, namespace);
  // a sealed run's NetworkPolicy lets its units reach this gateway's Pods by their label
  sealPeers?.set(new URL(origin).hostname, { [GATEWAY_LABEL]: labelValue(name) });
  const routeOf = new Map(base.routes.map((r) => [r.role, r]));
  // The gateway's Pod calls the providers: an endpoint on the runner's loopback is out of its reach.
  checkNoLoopback(Object.fromEntries(base.routes.flatMap((r) => (r.baseUrl ? [[r.baseUrlVars[0] ?? 'BASE_URL', r.baseUrl]] : []))), 'Pods of the kubernetes backend');
  pointRoutesAt(base, ups.byRole, (u) => `${origin}${upstreamPath(u)}`);
  const record = gatewayRecordOf(g.replay, ups);
  // Tokens are minted here and handed to the gateway in the cluster, which alone holds their grants.
  const issue = (unit: Parameters<RunGateway['tokensFor']>[0]) => {
    const env: Record<string, string> = {};
    const tokens: Array<{ token: string; grant: Omit<Grant, 'dir'> }> = [];
    for (const [role, u] of ups.byRole) {
      const token = newToken();
      tokens.push({ token, grant: { runId: unit.runId, container: unit.container, role, upstream: u.id, scenario: unit.scenario, runIndex: unit.runIndex, recordKey: unit.recordKey } });
      for (const v of routeOf.get(role)!.keyVars) env[v] = token;
    }
    return { env, tokens };
  };
  if (!access) {
    // No cluster: units show the Service's URL and tokens that open nothing.
    o.log?.(`Model gateway: in the cluster as Service ${name}.${namespace}.svc (dry run: not created)`);
    return { record, tokensFor: async (u) => issue(u).env, finish: async () => null, stats: () => EMPTY_STATS, close: async () => {} };
  }

  const apps = access.kc.makeApiClient(AppsV1Api);
  const budgeted = hasBudget(plan.run.budget);
  const adminToken = randomBytes(24).toString('base64url');
  const secret = gatewaySecretManifest({
    name,
    namespace,
    runId,
    labels: settings.labels,
    config: {
      // A replay calls no provider: its Secret holds no key.
      upstreams: ups.upstreams.map((u) => ({ id: u.id, provider: u.provider, base: u.base, key: g.replay ? null : u.key })),
      plan: { limits: g.limits, retryAttempts: g.retryAttempts, retryBudgetSeconds: g.retryBudgetSeconds, allowProviderTools: providerToolsAllowed(g, sealedNetwork(plan.run.network)) },
      prices: o.prices,
      replay: Boolean(g.replay),
      adminToken,
      ...(o.backoff ? { backoff: o.backoff } : {}),
      ...(budgeted ? { budget: plan.run.budget } : {}),
    },
  });
  const remove = async () => {
    const gone = (p: Promise<unknown>) => p.catch(() => {}); // 404: already gone (the Secret's owner chain)
    await gone(apps.deleteNamespacedDeployment({ name, namespace, propagationPolicy: 'Background', gracePeriodSeconds: 0 }));
    await gone(access.core.deleteNamespacedService({ name, namespace }));
    await gone(access.core.deleteNamespacedSecret({ name, namespace, propagationPolicy: 'Background' }));
  };
  let admin: AdminClient;
  try {
    const parent = await access.core.createNamespacedSecret({ namespace, body: secret });
    await apps.createNamespacedDeployment({ namespace, body: gatewayDeploymentManifest({ name, namespace, runId, image: plan.agent.image, settings, owner: parent }) });
    await access.core.createNamespacedService({ namespace, body: gatewayServiceManifest({ name, namespace, runId, labels: settings.labels, owner: parent }) });
    admin = await AdminClient.connect(access, name, adminToken, settings.pendingTimeout);
  } catch (e) {
    await remove();
    if (e instanceof EngineError || e instanceof ConfigError) throw e;
    throw new EngineError('engine_unavailable', `starting the model gateway in the cluster (Deployment ${name} in ${namespace}): ${redact((e as Error).message)}`);
  }
  o.log?.(
    `Model gateway in the cluster: ${name}.${namespace}.svc (Deployment, Service; keys in Secret ${name})` +
      (g.replay ? `, replaying ${g.replay} (no provider is called)` : `: ${ups.upstreams.map((u) => `${u.provider} (${(ups.roles.get(u.id) ?? []).join(', ')})`).join('; ')}`),
  );

  // The counts, and with a budget the caps met, read every couple of seconds: the runner's checks
  // read the last answer (the gateway itself refuses every call past a cap at once).
  let stats = EMPTY_STATS;
  let spent: SpendAnswer = { run: null, containers: {} };
  let polling = false;
  const timer = setInterval(() => {
    if (polling) return;
    polling = true;
    Promise.all([
      admin.call<GatewayStats>('GET', '/stats').then((s) => void (stats = s)),
      budgeted ? admin.call<SpendAnswer>('GET', '/spend').then((s) => void (spent = s)) : null,
    ])
      .catch(() => {})
      .finally(() => void (polling = false));
  }, budgeted ? SPEND_EVERY_MS : STATS_EVERY_MS);
  timer.unref();

  return {
    record,
    async tokensFor(unit) {
      const { env, tokens } = issue(unit);
      await admin.call('POST', '/containers', { tokens, ...(g.replay ? { replayRecord: readReplayRecord(g.replay, unit.recordKey) } : {}) });
      return env;
    },
    async finish(container, dir) {
      let a: FinishAnswer;
      try {
        a = await admin.call<FinishAnswer>('POST', '/containers/finish', { container });
      } catch (e) {
        o.log?.(`model gateway: cannot take ${container}'s traffic record from the cluster: ${(e as Error).message}`);
        return null;
      }
      stats = a.stats;
      if (dir && a.record) {
        await mkdir(dir, { recursive: true });
        await appendFile(join(dir, TRAFFIC_FILE), redact(a.record));
      }
      return a.failure;
    },
    stats: () => stats,
    ...(budgeted
      ? {
          overBudget: (c: string) => spent.containers[c] ?? spent.run,
          runOverBudget: () => spent.run,
          async overBudgetNow(c: string) {
            spent = await admin.call<SpendAnswer>('GET', '/spend').catch(() => spent);
            return spent.containers[c] ?? spent.run;
          },
        }
      : {}),
    async close() {
      clearInterval(timer);
      stats = await admin.call<GatewayStats>('GET', '/stats').catch(() => stats);
      await admin.close();
      await remove();
    },
  };
}
