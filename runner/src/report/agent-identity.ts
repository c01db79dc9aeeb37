// Which agent program a run evaluated, from what its run_config.json (or a result.json) records.
// Runs record `agent: {name, version}` (older ones only the runner's agent name: `default`,
// `oracle`, `scripted`), and the image. A reference image (gaia2-oc = OpenClaw, hermes, the
// oracle image) plays its own agent whatever the runner's agent name says, so its name wins
// over one of the runner's own; a third-party agent's recorded name wins over the image.
import { detectProfile } from '../env/profiles.js';
import type { RunRecord } from '../record/index.js';

export interface AgentIdentity {
  name: string | null;
  version: string | null;
  /** recorded: `agent: {name, version}`; image: a reference image's own agent; agent-option: the runner's agent name. */
  source: 'recorded' | 'image' | 'agent-option' | 'unknown';
}

/** The runner's own agent runtimes: inside a reference image, they are not who played. */
const RUNNER_AGENTS = ['default', 'oracle', 'scripted'];

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** What the identity is decided from: who the record says played, the image, the runner's agent option. */
interface IdentityFacts {
  recorded: { name: string | null; version: string | null } | null;
  image: string | null;
  option: { name: string; version: string | null } | null;
}

function identityOf(f: IdentityFacts): AgentIdentity {
  const recorded = f.recorded;
  if (recorded?.name && !RUNNER_AGENTS.includes(recorded.name)) return { ...recorded, source: 'recorded' };
  const profile = f.image ? detectProfile(f.image).name : null;
  if (profile && profile !== 'gaia2-runner') return { name: profile, version: null, source: 'image' };
  if (recorded?.name) return { ...recorded, source: 'recorded' };
  return f.option ? { ...f.option, source: 'agent-option' } : { name: null, version: null, source: 'unknown' };
}

/** From a run record (record/: `agent` is who played, `agent_options` the runner's choice). */
export function runAgentIdentity(rec: Pick<RunRecord, 'agent' | 'agent_options'>): AgentIdentity {
  const o = rec.agent_options;
  return identityOf({ recorded: rec.agent, image: o?.image ?? null, option: o ? { name: o.name, version: null } : null });
}

/** From a result.json (it carries `agent` and `image`; older ones `agent` as a plain name, maybe with `agent_version`). */
export function agentIdentity(result: Record<string, unknown>): AgentIdentity {
  const a = result.agent;
  const recorded = a && typeof a === 'object' ? { name: str((a as Record<string, unknown>).name), version: str((a as Record<string, unknown>).version) } : null;
  const name = str(a);
  return identityOf({ recorded, image: str(result.image), option: name ? { name, version: str(result.agent_version) } : null });
}

/** "claude-code 2.1.332": who played, as the leaderboard and the viewer print it; '' when unknown. */
export function agentLabel(a: Pick<AgentIdentity, 'name' | 'version'>): string {
  return a.name ? `${a.name}${a.version ? ` ${a.version}` : ''}` : '';
}
