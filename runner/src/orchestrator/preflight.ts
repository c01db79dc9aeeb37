// Everything a run is checked for and settled on before any trial is queued, in one place and
// one order: how model traffic flows (the gateway, or direct with the keys in the units'
// environment), the image the agent plays in (a third-party layer built when missing), the
// image features the plan needs, and the backend's preflight of what the run asks of it (host
// networking, services on this machine's loopback, files copied in at create). The backend's
// capabilities are checked here once, never per unit. Nothing here creates a unit.
import type { AgentRecord } from '@gaia2/contract/result';
import { IMAGE_FEATURES } from '@gaia2/contract/features';
import type { UnitBackend } from '../engine/index.js';
import { buildBaseEnv } from '../env/container-env.js';
import { gatewayDecision } from '../gateway/index.js';
import { engineNetwork, type RunPlan } from '../plan/plan.js';
import { hasBudget } from '../plan/budget.js';
import { ConfigError } from '../plan/errors.js';
import { requireImageFeature } from '../run/image-features.js';
import { prepareAgentImage } from './agent-image.js';

export interface Preflight {
  /** The plan with the image that actually runs (a third-party agent's layer). */
  plan: RunPlan;
  /** The agent that plays (name and version), as recorded in run_config.json and result.json. */
  agent: AgentRecord;
  /** The units' environment before per-unit tokens (keys withheld when the gateway is on). */
  base: ReturnType<typeof buildBaseEnv>;
  gateway: { on: boolean; reason?: string };
}

export async function preflightRun(given: RunPlan, engine: UnitBackend, hostEnv: Record<string, string | undefined>, log: (line: string) => void): Promise<Preflight> {
  // Decided on the configured image: a layer's tag names the agent, not the world's profile.
  let base = buildBaseEnv(given, hostEnv, { withholdKeys: true });
  const gateway = gatewayDecision(given, base.routes);
  if (!gateway.on) base = buildBaseEnv(given, hostEnv);
  checkBudgetEnforced(given, gateway);
  for (const n of base.notices) log(n);
  // The backend's refusal costs a request; an agent layer's build costs minutes: refusal first.
  await engine.preflight({ network: engineNetwork(given.run.network), env: base.env, files: base.files.map((f) => ({ path: f.path, setting: f.setting })) });
  const who = await prepareAgentImage(given, engine, log);
  const plan = who.plan;
  if (!gateway.on && base.routes.length) log(`Model gateway off: ${gateway.reason}`);
  // A backend that copies no files in at create gets the scenario through the adapter after start.
  if (!engine.capabilities.filesAtCreate)
    for (const feature of [IMAGE_FEATURES.scenarioAfterStart, IMAGE_FEATURES.filesRoute])
      await requireImageFeature(engine, plan.agent.image, feature, `the ${engine.name} backend (it copies no files into its units: the scenario goes in through the adapter)`);
  if (plan.noise) await requireImageFeature(engine, plan.agent.image, IMAGE_FEATURES.noise, 'the Noise phase (--noise / [noise])');
  return { plan, agent: who.agent, base, gateway };
}

/** A budget is counted by the model gateway (on this machine, or in the cluster): without it nothing could hold it. */
function checkBudgetEnforced(plan: RunPlan, gateway: { on: boolean; reason?: string }): void {
  if (!hasBudget(plan.run.budget)) return;
  const why = !gateway.on ? `the model gateway is off for this run (${gateway.reason ?? 'no model route'})` : null;
  if (why) throw new ConfigError(`[run] budget (max_cost_usd, max_tokens, total_max_cost_usd, total_max_tokens): the model gateway counts and enforces it, but ${why}`);
}
