// Which agent program a run evaluated, from what its run_config.json (or a result.json) records.
// Runs record `agent: {name, version}` (older ones only the runner's agent name: `default`,
// `oracle`, `scripted`), and the image. A reference image (gaia2-oc = OpenClaw, hermes, the
// oracle image) plays its own agent whatever the runner's agent name says, so its name wins
// over one of the runner's own; a third-party agent's recorded name wins over the image.
import { detectProfile } from '../env/profiles.js';

export interface AgentIdentity {
  name: string | null;
  version: string | null;
  /** recorded: `agent: {name, version}`; image: a reference image's own agent; agent-option: the runner's agent name. */
  source: 'recorded' | 'image' | 'agent-option' | 'unknown';
}

/** The runner's own agent runtimes: inside a reference image, they are not who played. */
const RUNNER_AGENTS = ['default', 'oracle', 'scripted'];

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** From a run record (run_config.json, or a result.json: both carry `agent` and `image`). */
export function agentIdentity(record: Record<string, unknown>): AgentIdentity {
  const a = record.agent;
  const recorded = a && typeof a === 'object' ? { name: str((a as Record<string, unknown>).name), version: str((a as Record<string, unknown>).version) } : null;
  if (recorded?.name && !RUNNER_AGENTS.includes(recorded.name)) return { ...recorded, source: 'recorded' };
  const image = str(record.image);
  const profile = image ? detectProfile(image).name : null;
  if (profile && profile !== 'gaia2-runner') return { name: profile, version: null, source: 'image' };
  if (recorded?.name) return { ...recorded, source: 'recorded' };
  const options = record.agent_options as Record<string, unknown> | undefined;
  const name = str(a) ?? str(options?.name);
  // A record that keeps `agent` a plain name may state the version beside it.
  return name ? { name, version: str(record.agent_version), source: 'agent-option' } : { name: null, version: null, source: 'unknown' };
}

/** "claude-code 2.1.332": who played, as the leaderboard and the viewer print it; '' when unknown. */
export function agentLabel(a: Pick<AgentIdentity, 'name' | 'version'>): string {
  return a.name ? `${a.name}${a.version ? ` ${a.version}` : ''}` : '';
}
