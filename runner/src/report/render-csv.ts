// The report as CSV: one row per split, then overall and macro (for spreadsheets and plots).
import type { GroupStats, Report } from './build.js';

const cell = (v: unknown): string => {
  if (v === null || v === undefined) return '';
  const s = String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

export function renderCsv(r: Report): string {
  const ks = Object.keys(r.overall.pass_at_k);
  const head = ['group', 'scenarios', 'runs', 'judged', 'passed', 'failed', 'errors', 'success_rate', 'se', 'ci95_low', 'ci95_high',
    ...ks.map((k) => `pass_at_${k}`), ...ks.map((k) => `pass_hat_${k}`),
    'agent_input_tokens', 'agent_output_tokens', 'agent_cache_read_tokens', 'agent_cache_write_tokens', 'app_agents_input_tokens', 'app_agents_output_tokens', 'judge_input_tokens', 'judge_output_tokens', 'cost_usd', 'program_failed', 'program_failed_unchecked', 'stuck_loops', 'network_sealed', 'network_unsealed', 'errors_policy'];
  const row = (name: string, g: GroupStats) => [
    name, g.scenarios, g.runs, g.judged, g.passed, g.failed, g.errors, g.success_rate, g.success_rate_ci.se, g.success_rate_ci.low, g.success_rate_ci.high,
    ...ks.map((k) => g.pass_at_k[k]!.value), ...ks.map((k) => g.pass_hat_k[k]!.value),
    g.usage.agent.input, g.usage.agent.output, g.usage.agent.cache_read, g.usage.agent.cache_write, g.usage.app_agents.input, g.usage.app_agents.output, g.usage.judge.input, g.usage.judge.output, g.usage.cost.total_usd, g.program_failed, g.program_failed_unchecked, g.stuck_loops ?? 0, g.network?.sealed ?? '', g.network?.unsealed ?? '', r.errors_policy,
  ];
  const rows = [...Object.entries(r.splits).map(([s, g]) => row(s, g)), row('overall', r.overall)];
  if (Object.keys(r.splits).length) {
    const m = r.macro;
    rows.push(['macro', '', '', '', '', '', '', m.success_rate, m.success_rate_ci.se, m.success_rate_ci.low, m.success_rate_ci.high,
      ...ks.map((k) => m.pass_at_k[k]), ...ks.map((k) => m.pass_hat_k[k]), '', '', '', '', '', '', '', '', '', '', '', '', '', '', r.errors_policy]);
  }
  return [head, ...rows].map((x) => x.map(cell).join(',')).join('\n') + '\n';
}
