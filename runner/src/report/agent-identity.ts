// Which agent program a run evaluated, from what its run_config.json (or a result.json) records.
// Newer runs record `agent: {name, version}`; older ones only the runner's agent name
// (`default`, `oracle`, `scripted`) and the image, whose name identifies a reference image
// (gaia2-oc = OpenClaw, hermes) that runs its own agent whatever the name says.
import { detectProfile } from '../env/profiles.js';

export interface AgentIdentity {
  name: string | null;
  version: string | null;
  /** recorded: `agent: {name, version}`; image: a reference image's profile; agent-option: the runner's agent name. */
  source: 'recorded' | 'image' | 'agent-option' | 'unknown';
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** `agent` as recorded: an object {name, version} (newer runs) or a plain name (older ones). */
function recordedAgent(v: unknown): { name: string | null; version: string | null } | null {
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return { name: str(o.name), version: str(o.version) };
  }
  return null;
}

/** From a run record (run_config.json, or a result.json: both carry `agent` and `image`). */
export function agentIdentity(record: Record<string, unknown>): AgentIdentity {
  const recorded = recordedAgent(record.agent);
  if (recorded?.name) return { ...recorded, source: 'recorded' };
  const image = str(record.image);
  // A reference image plays its own agent (openclaw, hermes, the oracle), named by the image.
  const profile = image ? detectProfile(image).name : null;
  if (profile && profile !== 'gaia2-runner') return { name: profile, version: null, source: 'image' };
  const options = record.agent_options as Record<string, unknown> | undefined;
  const name = str(record.agent) ?? str(options?.name);
  // A record that keeps `agent` a plain name may state the version beside it.
  return name ? { name, version: str(record.agent_version), source: 'agent-option' } : { name: null, version: null, source: 'unknown' };
}
