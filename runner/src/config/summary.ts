// The config summary printed by run-config (the whole output of --dry-run), spec §2.7, plus
// our additions (agent kind, judge mode, network, timeouts). Never prints secret values,
// only where they come from.
import { redact } from '../secrets/redact.js';
import { CANONICAL_SPLITS, hostActivityTimeout, type RunPlan } from '../plan/plan.js';

function keySource(ref: { source: string } | null): string {
  if (!ref) return 'from provider variables at launch';
  return ref.source === 'explicit' ? 'given in config (redacted)' : `from $${ref.source}`;
}

export function formatSummary(plan: RunPlan, resolvedScenarios: number | null, retry = plan.run.retry): string[] {
  const t = plan.target;
  const lines: string[] = [];
  if (plan.configPath) lines.push(`Config: ${plan.configPath}`);
  lines.push(`Image: ${plan.agent.image}`);
  lines.push(`Mode: ${t.kind === 'scenario' ? 'scenario' : 'dataset'}`);
  if (t.kind === 'scenario') lines.push(`Scenario: ${t.scenario}`);
  if (t.kind === 'hf') lines.push(`Dataset: ${t.repo}${t.revision !== 'main' ? `@${t.revision}` : ''}`);
  if (t.kind === 'local') lines.push(`Dataset root: ${t.path}`);
  if (t.kind !== 'scenario' && t.language) lines.push(`Language: ${t.language}${t.kind === 'hf' ? ` (Hugging Face configs ${t.language}_<split>, split test)` : ''}`);
  if (t.kind !== 'scenario') {
    if (t.splits) lines.push(`Splits: ${t.splits.join(', ')}`);
    else lines.push(t.kind === 'hf' ? `Splits: all benchmark splits (${CANONICAL_SPLITS.join(', ')})` : 'Splits: all files under dataset_root');
    if (t.subset) lines.push(`Subset manifest: ${t.subset}`);
    if (t.limit !== null) lines.push(`Limit: ${t.limit}`);
    if (resolvedScenarios !== null) lines.push(`Resolved scenarios: ${resolvedScenarios}`);
  }
  const a = plan.agent;
  if (a.name === 'default') {
    lines.push(`Agent: ${a.provider}/${a.model}`);
    lines.push(`Agent API key: ${keySource(a.apiKey)}`);
    if (a.baseUrl) lines.push(`Agent base URL: ${a.baseUrl}`);
    lines.push(`Thinking: ${a.thinking}`);
    lines.push(`Tools: ${a.tools}${a.maxTokens ? `; max tokens ${a.maxTokens}` : ''}`);
  } else lines.push(`Agent: ${a.name}${a.script ? ` (${a.script})` : ''}`);
  if (plan.judge) {
    lines.push(`Judge: ${plan.judge.provider}/${plan.judge.model}`);
    lines.push(`Judge API key: ${keySource(plan.judge.apiKey)}`);
    if (plan.judge.baseUrl) lines.push(`Judge base URL: ${plan.judge.baseUrl}`);
    lines.push(`Judge prompts: ${plan.judge.promptVersion ?? 'default'}`);
    if (plan.judge.extraBody) lines.push(`Judge extra body: ${JSON.stringify(plan.judge.extraBody)}`);
  } else lines.push('Judge: hard checks only (no judge LLM configured)');
  const x = plan.agent2agent;
  if (x) {
    lines.push(`Agent2Agent: app agents operate ${x.appProp * 100}% of each scenario's apps (seed: ${x.seed ?? "the scenario's"})`);
    lines.push(`App agents: ${x.provider}/${x.model}${x.baseUrl ? ` at ${x.baseUrl}` : ''}; API key: ${keySource(x.apiKey)}`);
  }
  const r = plan.run;
  lines.push(`Concurrency: ${r.concurrency}`);
  lines.push(`Pass@: ${r.passAt}`);
  if (retry) lines.push('Retry: on');
  if (r.errorsAsFailures) lines.push('Report: errors count as failed runs');
  if (r.enableCaching) lines.push('Result cache: on (identical finished runs are reused)');
  const b = r.backend;
  if (b.kind === 'kubernetes') lines.push(`Backend: kubernetes (${b.context ? `context ${b.context}, ` : ''}namespace ${b.namespace ?? 'from the kubeconfig'}, pull ${b.imagePullPolicy}, pending timeout ${b.pendingTimeout}s)`);
  else lines.push(`Network: ${r.network}`);
  const idle = r.idleTimeout != null ? `idle ${r.idleTimeout}s` : "idle the daemon's default (300s)";
  const activity = hostActivityTimeout(r);
  lines.push(`Timeouts: scenario ${r.timeout}s, health ${r.healthTimeout}s, ${idle}, host activity ${activity}s${activity !== r.activityTimeout ? ' (raised above the idle timeout)' : ''}`);
  const n = plan.noise;
  if (n) {
    const ta = n.tool_augmentation ? `tool failures ${n.tool_augmentation.tool_failure_probability} (seed ${n.tool_augmentation.seed})` : 'no tool augmentation';
    const ev = n.env_events ? `${n.env_events.num_env_events_per_minute} background events/min (seed ${n.env_events.env_events_seed})` : 'no background events';
    lines.push(`Noise: ${ta}; ${ev}`);
  }
  if (r.outputDir) lines.push(`Output dir: ${r.outputDir}`);
  if (r.output) lines.push(`Output file: ${r.output}`);
  return lines.map(redact);
}
