// The image a run's agent plays in, settled before any container starts: a third-party
// agent's layer is built on the world image when it is missing or stale (with progress), an
// `external` image must carry the agent-layer labels, our own runtimes use the world image.
// Returns the plan with that image and the agent's {name, version} for the records.
import type { AgentRecord } from '@gaia2/contract/result';
import { AGENT_LABELS } from '@gaia2/contract/agent-layer';
import { adapterFor, EXTERNAL_AGENT } from '../agents/index.js';
import { ConfigError } from '../plan/errors.js';
import type { RunPlan } from '../plan/plan.js';
import type { UnitBackend } from '../engine/index.js';
import { ensureAgentLayer, layerTag } from '../image/agent-layer.js';
import { settleAgentVersion } from '../image/agent-version.js';
import { DEFAULT_IMAGE, projectRoot } from '../image/index.js';
import { referenceImage } from '../image/reference-images.js';
import { runnerInfo } from '../provenance/index.js';

export interface AgentImage {
  plan: RunPlan;
  agent: AgentRecord;
}

export async function prepareAgentImage(plan: RunPlan, engine: UnitBackend, log: (line: string) => void): Promise<AgentImage> {
  const a = plan.agent;
  let adapter;
  try {
    adapter = adapterFor(a.name, a.options ?? {});
  } catch (e) {
    throw new ConfigError((e as Error).message);
  }
  if (adapter) {
    // The layer is built on the world image under a.image (and that image built when missing):
    // under a reference image's name it would replace or pose as the reference's image.
    const ref = referenceImage(a.image);
    if (ref) throw new ConfigError(`--agent ${a.name} runs on this runner's world image, but --image ${a.image} names the reference's ${ref.agent} image: use --image ${DEFAULT_IMAGE} (the default) or another name of yours`);
    // `latest` settled here, before any build: the layer, the records and the cache key get the exact version.
    const version = await settleAgentVersion(adapter, a.version, { log });
    // A backend without an image store (a cluster) runs the layer pushed under the same tag.
    const tag = engine.images
      ? (await ensureAgentLayer(engine.images, { projectRoot: projectRoot(), worldTag: a.image, adapter, version, log })).tag
      : layerTag(a.image, adapter.layerName ?? adapter.name, version);
    return { plan: { ...plan, agent: { ...a, image: tag, version } }, agent: { name: a.name, version } };
  }
  if (a.name === EXTERNAL_AGENT) {
    // A cluster holds no local images to read labels from: the record says what was asked.
    if (!engine.images) return { plan, agent: { name: EXTERNAL_AGENT, version: null } };
    const labels = await engine.images.labels(a.image).catch(() => null);
    if (!labels) throw new ConfigError(`--agent external: image ${a.image} was not found (build your agent layer first: docs/agents.md, "Bring your own agent")`);
    const name = labels[AGENT_LABELS.name];
    if (!name) throw new ConfigError(`--agent external: image ${a.image} has no ${AGENT_LABELS.name} label, so it is not an agent layer (docs/agents.md, "The launcher contract")`);
    return { plan, agent: { name, version: labels[AGENT_LABELS.version] || null } };
  }
  return { plan, agent: { name: a.name, version: runnerInfo().version } };
}
