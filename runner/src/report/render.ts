// Report as terminal text and as Markdown. Errors always appear beside the rates.
import type { GroupStats, Report } from './build.js';
import { metaLines } from './meta.js';
import { usageLines, usageMarkdown } from './render-usage.js';
import type { RateInterval } from './uncertainty.js';

export const pct = (x: number | null | undefined) => (x === null || x === undefined ? '—' : `${(x * 100).toFixed(1)}%`);
const judgeText = (m: Report['judge_mode']) =>
  m === 'hard-only' ? 'hard checks only (no judge LLM)' : m === 'llm' ? 'hard checks + LLM judge' : m === 'mixed' ? 'mixed (some runs hard checks only)' : 'unknown';

/** "3 (health_timeout: 2, provider: 1)": a group's errors with their kinds, most frequent first. */
export function errorsText(g: GroupStats): string {
  const kinds = Object.entries(g.errors_by_kind).sort((a, b) => b[1] - a[1]);
  return kinds.length ? `${g.errors} (${kinds.map(([k, n]) => `${k}: ${n}`).join(', ')})` : '0';
}

/** "2 (1 without a gateway record)": judged runs whose agent program failed a turn; "0" for older reports. */
export function programFailedText(g: Pick<GroupStats, 'program_failed' | 'program_failed_unchecked'>): string {
  const n = g.program_failed ?? 0;
  const unchecked = g.program_failed_unchecked ?? 0;
  return unchecked ? `${n} (${unchecked} without a gateway record)` : String(n);
}

/** "3" or "3 (1 stuck loop)": failed runs, with those a stuck loop ended; older reports have no count. */
export function failedText(g: Pick<GroupStats, 'failed' | 'stuck_loops'>): string {
  const n = g.stuck_loops ?? 0;
  return n ? `${g.failed} (${n} stuck loop${n === 1 ? '' : 's'})` : String(g.failed);
}

/**
 * The Sealed column: sealed runs of all the group's runs ("12/12"); "—" when no run says (results
 * written before sealing existed). A run that does not say counts as not known to be sealed.
 */
export function sealedCell(g: Pick<GroupStats, 'runs' | 'network'>): string {
  const n = g.network;
  if (!n || (!n.sealed && !n.unsealed)) return '—';
  return `${n.sealed}/${g.runs}`;
}

export function policyText(r: Report): string {
  const cache = r.reused_from_cache ? ` ${r.reused_from_cache} of ${r.overall.runs} runs were reused from the result cache (--enable-caching), not run again.` : '';
  return errorsPolicyText(r) + cache + sealedText(r);
}

function sealedText(r: Report): string {
  const n = r.network ?? { sealed: 0, unsealed: 0 };
  if (!n.sealed && !n.unsealed) return '';
  if (!n.unsealed) return ' Every run ran with a sealed network (its world and the model gateway only).';
  return ` ${n.unsealed} of ${n.sealed + n.unsealed} runs ran with an unsealed network (docs/config.md, "Sealed network").`;
}

function errorsPolicyText(r: Report): string {
  return r.errors_policy === 'as-failures'
    ? 'Errors count as failed runs (--errors-as-failures).'
    : 'Errors are left out of every denominator (the reference rule; --errors-as-failures counts them as failures).';
}

function kList(g: GroupStats, which: 'pass_at_k' | 'pass_hat_k', sym: string): string {
  return Object.entries(g[which]).map(([k, v]) => `${sym}${k} ${pct(v.value)}`).join('  ');
}

/** A duration as the report prints it: seconds, or minutes from two minutes on. */
export function seconds(s: number | null): string {
  if (s === null) return '—';
  return s >= 120 ? `${(s / 60).toFixed(1)}m` : `${s.toFixed(1)}s`;
}

/** "42.0% ± 3.1% [35.9%, 48.1%]"; the SE is absent with fewer than two scenarios. */
export function rateText(rate: number | null, ci: RateInterval): string {
  if (rate === null || ci.se === null) return pct(rate);
  return `${pct(rate)} ± ${pct(ci.se)} [${pct(ci.low)}, ${pct(ci.high)}]`;
}

function groupLine(name: string, g: GroupStats, r: Report): string {
  const denom = r.errors_policy === 'as-failures' ? `${g.judged + g.errors} runs` : `${g.judged} judged runs`;
  const unchecked = g.program_failed_unchecked ? ` (${g.program_failed_unchecked} without a gateway record)` : '';
  const program = g.program_failed ? `, agent program failed in ${g.program_failed} judged run${g.program_failed === 1 ? '' : 's'}${unchecked}` : '';
  return `${name}: ${g.passed}/${denom} passed (${rateText(g.success_rate, g.success_rate_ci)}), ${failedText(g)} failed, errors ${errorsText(g)}${program}`;
}

export function renderText(r: Report): string {
  const bar = '='.repeat(60);
  const o = r.overall;
  const lines = [bar, `Report: ${r.output_dir}`, ...metaLines(r.meta), `Runs per scenario: ${r.num_runs}; scenarios: ${o.scenarios}; judge: ${judgeText(r.judge_mode)}`];
  lines.push(groupLine('Overall (micro)', o, r));
  lines.push(`  ${kList(o, 'pass_at_k', 'pass@')}`);
  lines.push(`  ${kList(o, 'pass_hat_k', 'pass^')}`);
  const splits = Object.entries(r.splits);
  if (splits.length) {
    lines.push('Per split:');
    for (const [s, g] of splits) lines.push(`  ${groupLine(s, g, r)}; ${kList(g, 'pass_at_k', 'pass@')}; ${kList(g, 'pass_hat_k', 'pass^')}`);
    const k = Object.keys(r.macro.pass_at_k);
    lines.push(`Macro (mean of ${splits.length} splits): ${rateText(r.macro.success_rate, r.macro.success_rate_ci)}; ${k.map((x) => `pass@${x} ${pct(r.macro.pass_at_k[x])}`).join('  ')}; ${k.map((x) => `pass^${x} ${pct(r.macro.pass_hat_k[x])}`).join('  ')}`);
  }
  lines.push(policyText(r));
  const d = o.duration_seconds;
  lines.push(`Durations: mean ${seconds(d.mean)}, median ${seconds(d.median)}, total ${seconds(d.known ? d.total : null)}`);
  lines.push(...usageLines(o));
  lines.push(bar);
  return lines.join('\n') + '\n';
}

export function renderMarkdown(r: Report): string {
  const ks = Object.keys(r.overall.pass_at_k);
  const head = ['Split', 'Scenarios', 'Runs', 'Sealed', 'Pass', 'Fail', 'Errors', 'Program failed', 'Success ± SE [95% CI]', ...ks.map((k) => `pass@${k}`), ...ks.map((k) => `pass^${k}`)];
  const row = (name: string, g: GroupStats) => [
    name,
    g.scenarios,
    g.runs,
    sealedCell(g),
    g.passed,
    failedText(g),
    errorsText(g),
    programFailedText(g),
    rateText(g.success_rate, g.success_rate_ci),
    ...ks.map((k) => pct(g.pass_at_k[k]!.value)),
    ...ks.map((k) => pct(g.pass_hat_k[k]!.value)),
  ];
  const rows = [...Object.entries(r.splits).map(([s, g]) => row(s, g)), row('**overall (micro)**', r.overall)];
  if (Object.keys(r.splits).length)
    rows.push(['**macro**', '', '', '', '', '', '', '', rateText(r.macro.success_rate, r.macro.success_rate_ci), ...ks.map((k) => pct(r.macro.pass_at_k[k])), ...ks.map((k) => pct(r.macro.pass_hat_k[k]))]);
  const esc = (c: unknown) => String(c).replace(/\|/g, '\\|');
  const table = [head, head.map(() => '---'), ...rows].map((r0) => `| ${r0.map(esc).join(' | ')} |`).join('\n');
  const d = r.overall.duration_seconds;
  return [
    `# Gaia2 report`,
    '',
    ...metaLines(r.meta).map((l) => `${l}  `),
    `Output: \`${r.output_dir}\`  `,
    `Runs per scenario: ${r.num_runs}; judge: ${judgeText(r.judge_mode)}; generated ${r.generated_at}`,
    '',
    table,
    '',
    `${policyText(r)} Sealed: runs whose agent's network was sealed (its world and the model gateway only; result.json network_sealed, docs/config.md "Sealed network"), of all runs. Program failed: judged runs whose agent program failed a turn on its own (its failure text was the judged reply, and the model gateway's record showed no provider failure in that turn; "without a gateway record": there was none to check, as in direct mode), counted in the rates. Stuck loops: failed runs ended because the agent made the same tool call with the same result [run].stuck_loop_min_tool_calls times in a row (judged failures, counted in the rates). Success rate = passes / counted runs. SE is clustered by scenario (with one run per scenario: the SE across scenarios); ` +
      '95% CI = rate ± 1.96·SE, clipped to [0, 100%]; macro = mean of the splits, SE = √(Σ SE²)/splits. ' +
      'pass@k = mean over scenarios of 1 − C(n−c,k)/C(n,k), pass^k = mean of C(c,k)/C(n,k), n = counted runs, c = passes; scenarios with n < k are left out.',
    '',
    `Durations: mean ${seconds(d.mean)}, median ${seconds(d.median)}, total ${seconds(d.known ? d.total : null)}.`,
    '',
    usageMarkdown(r),
  ].join('\n');
}
