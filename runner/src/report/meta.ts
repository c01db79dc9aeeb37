// What a run was, read from its run_config.json, for the report's header: the facts a paper
// states next to a number (model, judge, dataset and revision, runs per scenario, date).
import { findRunRecord, type RunRecord } from '../record/index.js';
import { runAgentIdentity, type AgentIdentity } from './agent-identity.js';

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

/** ", prompts omnilingual-gaia2, extra body {…}" when the judge was configured beyond the defaults. */
function judgeSettings(j: NonNullable<RunRecord['judge_options']>): string {
  const version = j.prompt_version;
  const extra = j.extra_body ? JSON.stringify(j.extra_body) : null;
  return `${version && version !== 'default' ? `, prompts ${version}` : ''}${extra ? `, extra body ${extra}` : ''}`;
}

const judgeLine = (j: RunRecord['judge_options']): string => (j ? `${j.model} (${j.provider})${judgeSettings(j)}` : 'hard checks only (no judge LLM)');

/** From <dir>/run_config.json, or the first run's of a pass@N root; null when neither exists. */
export function readReportMeta(dir: string): ReportMeta | null {
  const c = findRunRecord(dir);
  return c ? reportMetaOf(c) : null;
}

/** The header's facts of a run record. */
export function reportMetaOf(c: RunRecord): ReportMeta {
  const a = c.agent_options;
  const t = c.target;
  const image = a?.image ?? null;
  return {
    agent: c.agent?.name ?? a?.name ?? null,
    model: a?.model ?? null,
    provider: a?.provider ?? null,
    judge: judgeLine(c.judge_options),
    dataset: !t ? null : t.kind === 'hf' ? t.repo : t.kind === 'local' ? t.path : t.scenario,
    language: t && t.kind !== 'scenario' ? (t.language ?? null) : null,
    revision: c.dataset_revision_sha ?? (t?.kind === 'hf' ? t.revision : null),
    pass_at: c.run_options.pass_at,
    started_at: c.started_at,
    image: image ? `${image}${c.image_id ? ` (${c.image_id.slice(0, 19)}…)` : ''}` : null,
    runner_version: c.runner?.version ?? null,
    errors_as_failures: c.run_options.errors_as_failures,
    agent_identity: runAgentIdentity(c),
    setting: settingOf(c),
  };
}

/** The Gaia2 setting a run record describes: Noise and Agent2Agent are recorded as their settings. */
export function settingOf(c: Pick<RunRecord, 'agent2agent_options' | 'noise'>): string {
  const parts = [c.agent2agent_options ? 'agent2agent' : null, c.noise ? 'noise' : null].filter(Boolean);
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
