// Older layouts of run_config.json → the current record's shape (run-record.ts), so read.ts is
// the only place that knows them. Two layouts came before:
//   1: our runner's flat copy of the settings (model, judge_model, language, a2a_*…) beside the
//      option sections (target, agent_options, …); the sections are kept, the copy dropped.
//   0: only flat keys: the reference runner's (spec runner §7.6) or ours before runs recorded
//      their options. The sections are rebuilt from those keys as far as they go; such a record
//      reads for reports and viewers, and `rerun` refuses it (read.ts: recordedOptions).
import { recordedAgentName } from '@gaia2/contract/result';

type Json = Record<string, unknown>;

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);
const strings = (v: unknown): string[] | undefined => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : undefined);
/** Only the keys whose value is defined (the schema's defaults fill the rest). */
const defined = (o: Json): Json => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/** `agent: {name, version}`, or (older) a plain name with `agent_version` beside it. */
function agentPlayed(raw: Json): Json | null {
  const name = str(recordedAgentName(raw.agent));
  if (!name) return null;
  const a = obj(raw.agent);
  return { name, version: str(a ? a.version : raw.agent_version) ?? null };
}

function targetOf(raw: Json): Json | null {
  const scenario = str(raw.scenario);
  if (scenario) return { kind: 'scenario', scenario };
  const dataset = str(raw.dataset);
  if (!dataset) return null;
  const common = defined({ splits: strings(raw.splits) ?? null, subset: str(raw.subset) ?? null, limit: num(raw.limit) ?? null, language: str(raw.language) ?? null });
  // A Hugging Face dataset is recorded with its download's cache directory (or a revision).
  if (str(raw.dataset_cache_dir) || str(raw.revision)) return { kind: 'hf', repo: dataset, revision: str(raw.revision) ?? 'main', ...common };
  return { kind: 'local', path: dataset, ...common };
}

/** Flat keys → the option sections (layout 0). */
function sectionsFromFlat(raw: Json): Json {
  const image = str(raw.image);
  const judgeModel = str(raw.judge_model);
  const judgeProvider = str(raw.judge_provider);
  const a2aModel = str(raw.a2a_model);
  const a2aProvider = str(raw.a2a_provider);
  return {
    target: targetOf(raw),
    // The runner's own agent when the record names none (a reference image plays its own anyway);
    // the reference always records its image, hand-made records may give only the model.
    agent_options: image || str(raw.model)
      ? defined({ name: str(recordedAgentName(raw.agent)) ?? 'default', image: image ?? '', runtime: str(raw.runtime), provider: str(raw.provider) ?? null, model: str(raw.model) ?? null, base_url: str(raw.base_url) ?? null })
      : null,
    judge_options:
      judgeModel && judgeProvider
        ? { provider: judgeProvider, model: judgeModel, base_url: str(raw.judge_base_url) ?? null, prompt_version: str(raw.judge_prompt_version) ?? null, extra_body: obj(raw.judge_extra_body) ?? null }
        : null,
    // ARE's a2a_app_prop marks an Agent2Agent run even where the app agents' model was not kept.
    agent2agent_options:
      num(raw.a2a_app_prop) !== undefined
        ? { app_prop: raw.a2a_app_prop, seed: num(raw.a2a_seed) ?? null, provider: a2aProvider ?? '', model: a2aModel ?? '', base_url: str(raw.a2a_base_url) ?? null }
        : null,
    run_options: defined({
      timeout: num(raw.timeout),
      health_timeout: num(raw.health_timeout),
      activity_timeout: num(raw.activity_timeout),
      idle_timeout: num(raw.idle_timeout),
      concurrency: num(raw.concurrency),
      pass_at: num(raw.total_runs) ?? num(raw.pass_at),
      network: str(raw.network),
    }),
    noise: raw.noise ?? null,
  };
}

const OPTION_SECTIONS = ['command', 'target', 'agent_options', 'judge_options', 'agent2agent_options', 'run_options', 'noise', 'gateway_options', 'seeds'] as const;
/** Facts every layout stored under the same name (read.ts drops one whose value does not fit). */
export const FACTS = ['run_id', 'started_at', 'resumed_at', 'user', 'config_path', 'dataset_cache_dir', 'splits', 'num_scenarios', 'retry_num_scenarios', 'run_number', 'shard', 'model_gateway', 'aggregate', 'runner', 'engine', 'image_id', 'image_context_hash', 'dataset_revision_sha', 'dataset_revision_shas', 'scenario_hashes'] as const;

/** Whether the file has the option sections (layouts 1 and 2). */
export const hasOptionSections = (raw: Json): boolean => !!obj(raw.target) && !!obj(raw.agent_options) && !!obj(raw.run_options);

/** A record of layout 0 or 1 in the current shape, ready for the schema to check. */
export function fromOlderLayout(raw: Json): Json {
  const sectioned = hasOptionSections(raw);
  const kept = Object.fromEntries(OPTION_SECTIONS.filter((k) => raw[k] !== undefined).map((k) => [k, raw[k]]));
  // Layout 0 may still hold a section or two (a partial record): those win over the flat keys.
  const sections = sectioned ? kept : { ...sectionsFromFlat(raw), ...kept };
  const facts = Object.fromEntries(FACTS.filter((k) => raw[k] !== undefined && raw[k] !== null).map((k) => [k, raw[k]]));
  return { ...facts, ...sections, schema_version: sectioned ? 1 : 0, agent: agentPlayed(raw) };
}
