// What a run was, read from its run_config.json, for the report's header: the facts a paper
// states next to a number (model, judge, dataset and revision, runs per scenario, date).
import { findRunRecord } from '../record/index.js';
import { agentIdentity, type AgentIdentity } from './agent-identity.js';
import { recordedAgentName } from '../../../agent-image/src/contract/result.js';

export interface ReportMeta {
  agent: string | null;
  model: string | null;
  provider: string | null;
  judge: string;
  dataset: string | null;
  /** A per-language dataset's language (Omnilingual-Gaia2), else null. */
  language: string | null;
  /** The resolved revision (a commit sha) when recorded, else the requested one. */
  revision: string | null;
  pass_at: number | null;
  started_at: string | null;
  image: string | null;
  runner_version: string | null;
  /** The error policy the run was started with (`--errors-as-failures`, [run].errors_as_failures). */
  errors_as_failures: boolean;
  /** The agent program, with how it was known (agent-identity.ts: recorded, a reference image's, the agent option). */
  agent_identity: AgentIdentity;
  /** standard, noise, agent2agent (or agent2agent+noise): the Gaia2 setting the run used. */
  setting: string;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** ", prompts omnilingual-gaia2, extra body {…}" when the judge was configured beyond the defaults. */
function judgeSettings(c: Record<string, unknown>): string {
  const version = str(c.judge_prompt_version);
  const extra = c.judge_extra_body && typeof c.judge_extra_body === 'object' ? JSON.stringify(c.judge_extra_body) : null;
  return `${version && version !== 'default' ? `, prompts ${version}` : ''}${extra ? `, extra body ${extra}` : ''}`;
}

/** From <dir>/run_config.json, or the first run's of a pass@N root; null when neither exists. */
export function readReportMeta(dir: string): ReportMeta | null {
  const c = findRunRecord(dir);
  if (!c) return null;
  const runner = (c.runner ?? {}) as Record<string, unknown>;
  const judgeModel = str(c.judge_model);
  const judgeProvider = str(c.judge_provider);
  return {
    agent: str(recordedAgentName(c.agent)),
    model: str(c.model),
    provider: str(c.provider),
    judge: judgeModel ? `${judgeModel}${judgeProvider ? ` (${judgeProvider})` : ''}${judgeSettings(c)}` : 'hard checks only (no judge LLM)',
    dataset: str(c.dataset) ?? str(c.scenario),
    language: str(c.language),
    revision: str(c.dataset_revision_sha) ?? str(c.revision),
    pass_at: typeof c.total_runs === 'number' ? c.total_runs : typeof c.pass_at === 'number' ? c.pass_at : null,
    started_at: str(c.started_at),
    image: str(c.image) ? `${c.image}${str(c.image_id) ? ` (${String(c.image_id).slice(0, 19)}…)` : ''}` : null,
    runner_version: str(runner.version),
    errors_as_failures: (c.run_options as Record<string, unknown> | undefined)?.errors_as_failures === true,
    agent_identity: agentIdentity(c),
    setting: settingOf(c),
  };
}

/** The Gaia2 setting a run record describes: Noise and Agent2Agent are recorded as their settings. */
export function settingOf(c: Record<string, unknown>): string {
  const parts = [c.a2a_app_prop !== undefined && c.a2a_app_prop !== null ? 'agent2agent' : null, c.noise ? 'noise' : null].filter(Boolean);
  return parts.length ? parts.join('+') : 'standard';
}

/** One line per fact, "Label: value", leaving out what is unknown. */
export function metaLines(m: ReportMeta | null): string[] {
  if (!m) return ['Run: no run_config.json found (model, judge and dataset unknown)'];
  const model = m.model ? `${m.model}${m.provider ? ` (${m.provider})` : ''}` : m.agent ? `${m.agent} agent (no LLM)` : null;
  const rows: Array<[string, string | number | null]> = [
    // "claude-code 2.1.332": who played, with its exact version (agent-identity.ts)
    ['Agent', m.agent_identity.name ? [m.agent_identity.name, m.agent_identity.version].filter(Boolean).join(' ') : null],
    ['Model', model],
    ['Judge', m.judge],
    ['Dataset', m.dataset ? `${m.dataset}${m.revision ? ` @ ${m.revision}` : ''}` : null],
    ['Language', m.language],
    ['Runs per scenario (N)', m.pass_at],
    ['Started', m.started_at],
    ['Image', m.image],
    ['Runner', m.runner_version],
  ];
  return rows.filter(([, v]) => v !== null).map(([k, v]) => `${k}: ${v}`);
}
