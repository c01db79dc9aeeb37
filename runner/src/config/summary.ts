// The config summary printed by run-config (the whole output of --dry-run), spec §2.7, plus
// our additions (agent kind, judge mode, network, timeouts). It is read from the run record
// (record/, what run_config.json will hold), so the summary shows the settings as they are
// recorded; only what the record does not keep (the config's path, the number of scenarios,
// --retry, where output goes) comes with it. Never prints secret values, only where they come from.
import { redact } from '../secrets/redact.js';
import { CANONICAL_SPLITS, hostActivityTimeout, type RunPlan } from '../plan/plan.js';
import { toRecord, type RecordedOptions } from '../record/index.js';
import { backendProvider } from '../engine/registry.js';

/** What the summary shows beside the record. */
export interface SummaryContext {
  configPath: string | null;
  resolvedScenarios: number | null;
  retry: boolean;
  outputDir: string | null;
  output: string | null;
}

/** The plan's summary: its record, and the few facts outside it. */
export function formatSummary(plan: RunPlan, resolvedScenarios: number | null, retry = plan.run.retry): string[] {
  return formatRecordSummary(toRecord(plan), { configPath: plan.configPath, resolvedScenarios, retry, outputDir: plan.run.outputDir, output: plan.run.output });
}

function keySource(ref: { api_key_env: string | null; api_key: string | null }): string {
  if (ref.api_key) return 'given in config (redacted)';
  return ref.api_key_env ? `from $${ref.api_key_env}` : 'from provider variables at launch';
}

export function formatRecordSummary(rec: RecordedOptions, ctx: SummaryContext): string[] {
  const t = rec.target;
  const { resolvedScenarios } = ctx;
  const lines: string[] = [];
  if (ctx.configPath) lines.push(`Config: ${ctx.configPath}`);
  lines.push(`Image: ${rec.agent_options.image}`);
  lines.push(`Mode: ${t.kind === 'scenario' ? 'scenario' : 'dataset'}`);
  if (t.kind === 'scenario') lines.push(`Scenario: ${t.scenario}`);
  if (t.kind === 'hf') lines.push(`Dataset: ${t.repo}${t.revision !== 'main' ? `@${t.revision}` : ''}`);
  if (t.kind === 'local') lines.push(`Dataset root: ${t.path}`);
  if (t.kind !== 'scenario' && t.language) lines.push(`Language: ${t.language}${t.kind === 'hf' ? ` (Hugging Face configs ${t.language}_<split>, split test)` : ''}`);
  if (t.kind !== 'scenario') {
    if (t.splits) lines.push(`Splits: ${t.splits.join(', ')}`);
    else lines.push(t.kind === 'hf' ? `Splits: all benchmark splits (${CANONICAL_SPLITS.join(', ')})` : 'Splits: all files under dataset_root');
    if (t.subset) lines.push(`Subset manifest: ${t.subset}`);
    if (t.sequences) lines.push(`Sequences: ${t.sequences} (universe chains, the state carried from scenario to scenario)`);
    if (t.limit !== null) lines.push(`Limit: ${t.limit}`);
    if (t.shard) lines.push(`Shard: ${t.shard.index} of ${t.shard.count} (round-robin after subset and limit)`);
    if (resolvedScenarios !== null) lines.push(`Resolved scenarios: ${resolvedScenarios}`);
  }
  const a = rec.agent_options;
  if (a.name === 'default') {
    lines.push(`Agent: ${a.provider}/${a.model}`);
    lines.push(`Agent API key: ${keySource(a)}`);
    if (a.base_url) lines.push(`Agent base URL: ${a.base_url}`);
    lines.push(`Thinking: ${a.thinking}`);
    lines.push(`Tools: ${a.tools}${a.max_tokens ? `; max tokens ${a.max_tokens}` : ''}`);
  } else lines.push(`Agent: ${a.name}${a.version ? ` ${a.version}` : ''}${a.script ? ` (${a.script})` : ''}`);
  const j = rec.judge_options;
  if (j) {
    lines.push(`Judge: ${j.provider}/${j.model}`);
    lines.push(`Judge API key: ${keySource(j)}`);
    if (j.base_url) lines.push(`Judge base URL: ${j.base_url}`);
    lines.push(`Judge prompts: ${j.prompt_version ?? 'default'}`);
    if (j.extra_body) lines.push(`Judge extra body: ${JSON.stringify(j.extra_body)}`);
  } else lines.push('Judge: hard checks only (no judge LLM configured)');
  const x = rec.agent2agent_options;
  if (x) {
    lines.push(`Agent2Agent: app agents operate ${x.app_prop * 100}% of each scenario's apps (seed: ${x.seed ?? "the scenario's"})`);
    lines.push(`App agents: ${x.provider}/${x.model}${x.base_url ? ` at ${x.base_url}` : ''}; API key: ${keySource(x)}`);
  }
  const r = rec.run_options;
  lines.push(`Concurrency: ${r.concurrency}`);
  lines.push(`Pass@: ${r.pass_at}`);
  if (ctx.retry) lines.push('Retry: on');
  if (r.errors_as_failures) lines.push('Report: errors count as failed runs');
  if (r.enable_caching) lines.push('Result cache: on (identical finished runs are reused)');
  // the backend describes itself (engine/registry.ts)
  lines.push(backendProvider(r.backend.kind).summary(r.backend, r.network));
  const idle = r.idle_timeout != null ? `idle ${r.idle_timeout}s` : "idle the daemon's default (300s)";
  const activity = hostActivityTimeout({ activityTimeout: r.activity_timeout, idleTimeout: r.idle_timeout });
  lines.push(`Timeouts: scenario ${r.timeout}s, health ${r.health_timeout}s, ${idle}, host activity ${activity}s${activity !== r.activity_timeout ? ' (raised above the idle timeout)' : ''}`);
  const b = r.budget;
  if (b) {
    const caps = [b.max_cost_usd != null && `$${b.max_cost_usd}`, b.max_tokens != null && `${b.max_tokens} tokens`].filter(Boolean).join(', ');
    const total = [b.total_max_cost_usd != null && `$${b.total_max_cost_usd}`, b.total_max_tokens != null && `${b.total_max_tokens} tokens`].filter(Boolean).join(', ');
    lines.push(`Budget (the agent's model calls, through the gateway): ${[caps && `${caps} per scenario run`, total && `${total} for the whole run`].filter(Boolean).join('; ')}`);
  }
  if (r.stuck_loop_min_tool_calls) lines.push(`Stuck loops: a run fails after ${r.stuck_loop_min_tool_calls} identical tool calls with identical results in a row`);
  const n = rec.noise as RunPlan['noise'];
  if (n) {
    const ta = n.tool_augmentation ? `tool failures ${n.tool_augmentation.tool_failure_probability} (seed ${n.tool_augmentation.seed})` : 'no tool augmentation';
    const ev = n.env_events ? `${n.env_events.num_env_events_per_minute} background events/min (seed ${n.env_events.env_events_seed})` : 'no background events';
    lines.push(`Noise: ${ta}; ${ev}`);
  }
  if (ctx.outputDir) lines.push(`Output dir: ${ctx.outputDir}`);
  if (ctx.output) lines.push(`Output file: ${ctx.output}`);
  return lines.map(redact);
}
