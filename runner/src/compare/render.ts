// A comparison as Markdown (also printed) and as a standalone HTML page with the same tables.
import { escapeHtml } from '../viewer/pages/html.js';
import type { Comparison, PairComparison, PairStats } from './build.js';

const pct = (x: number | null | undefined) => (x === null || x === undefined ? '—' : `${(x * 100).toFixed(1)}%`);
const pp = (x: number | null | undefined) => (x === null || x === undefined ? '—' : `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} pp`);
const pval = (p: number) => (p < 0.001 ? '< 0.001' : p.toFixed(3));

const HEAD = ['Split', 'Shared scenarios', 'Baseline', 'Run', 'Δ', 'SE(Δ)', 'Bootstrap 95% CI of Δ', 'fail→pass', 'pass→fail', 'McNemar p'];

function statsRow(name: string, s: PairStats): string[] {
  const ci = s.bootstrap_ci95;
  return [
    name,
    String(s.shared),
    pct(s.baseline_rate),
    pct(s.rate),
    pp(s.delta),
    s.delta_se === null ? '—' : `${(s.delta_se * 100).toFixed(1)} pp`,
    ci ? `[${pp(ci.low)}, ${pp(ci.high)}]` : '—',
    s.mcnemar ? String(s.mcnemar.fail_to_pass) : '—',
    s.mcnemar ? String(s.mcnemar.pass_to_fail) : '—',
    s.mcnemar ? pval(s.mcnemar.p_value) : '—',
  ];
}

export function pairTables(p: PairComparison): { stats: string[][]; flips: string[][] } {
  const stats = [...Object.entries(p.splits).map(([s, v]) => statsRow(s, v)), statsRow('overall', p.overall)];
  const flips = p.flips.map((f) => [f.split, f.scenario, pct(f.from), pct(f.to)]);
  return { stats, flips };
}

const FLIP_HEAD = ['Split', 'Scenario', 'Baseline', 'Run'];

const NOTE = (c: Comparison) =>
  `Paired on the scenarios both runs judged (errors left out). A scenario's score is its success rate over its judged runs (0 or 1 with one run). ` +
  `Δ = run − baseline, mean over shared scenarios; SE(Δ) = sample STD of the differences / √m; bootstrap: ${c.pairs[0]?.overall.bootstrap_ci95?.resamples ?? 10000} resamples of scenarios, seed ${c.bootstrap_seed}. ` +
  `McNemar (exact, two-sided) only when both runs have one run per scenario.`;

export function renderCompareMarkdown(c: Comparison): string {
  const table = (head: string[], rows: string[][]) => [head, head.map(() => '---'), ...rows].map((r) => `| ${r.map((x) => x.replace(/\|/g, '\\|')).join(' | ')} |`).join('\n');
  const out = ['# Gaia2 comparison', '', ...c.runs.map((r, i) => `${i === 0 ? 'Baseline' : `Run ${i}`}: **${r.name}** (${r.scenarios} scenarios, ${r.runs_per_scenario} run(s) each) \`${r.dir}\`  `), ''];
  for (const p of c.pairs) {
    const t = pairTables(p);
    out.push(`## ${p.run} vs ${p.baseline}`, '', table(HEAD, t.stats), '');
    if (p.unpaired.baseline_only || p.unpaired.run_only) out.push(`Not paired: ${p.unpaired.baseline_only} scenario(s) judged only in ${p.baseline}, ${p.unpaired.run_only} only in ${p.run}.`, '');
    out.push(`### Changed verdicts (${p.flips.length})`, '', p.flips.length ? table(FLIP_HEAD, t.flips) : 'None.', '');
  }
  out.push(NOTE(c), '');
  return out.join('\n');
}

export function renderCompareHtml(c: Comparison): string {
  const e = escapeHtml;
  const table = (head: string[], rows: string[][]) =>
    `<table><thead><tr>${head.map((h) => `<th>${e(h)}</th>`).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map((x) => `<td>${e(x)}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
  const body: string[] = ['<h1>Gaia2 comparison</h1>', '<ul>', ...c.runs.map((r, i) => `<li>${i === 0 ? 'Baseline' : `Run ${i}`}: <b>${e(r.name)}</b> (${r.scenarios} scenarios, ${r.runs_per_scenario} run(s) each) <code>${e(r.dir)}</code></li>`), '</ul>'];
  for (const p of c.pairs) {
    const t = pairTables(p);
    body.push(`<h2>${e(p.run)} vs ${e(p.baseline)}</h2>`, table(HEAD, t.stats));
    body.push(`<h3>Changed verdicts (${p.flips.length})</h3>`, p.flips.length ? table(FLIP_HEAD, t.flips) : '<p>None.</p>');
  }
  body.push(`<p class="note">${e(NOTE(c))}</p>`);
  const style = 'body{font:14px system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:.5em 0 1.5em}th,td{border:1px solid #ccc;padding:.3em .6em;text-align:right}th:first-child,td:first-child,td:nth-child(2){text-align:left}.note{color:#555;max-width:60em}';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'"><title>Gaia2 comparison</title><style>${style}</style></head><body>${body.join('\n')}</body></html>\n`;
}
