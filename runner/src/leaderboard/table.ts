// The leaderboard's tables as cells, once: the Markdown and the HTML pages render the same
// cells (a cell's `detail` is the secondary text: the interval, the provider, …).
import { agentLabel, errorsText, pct, programFailedText, rateText, sealedCell, seconds, usd, type GroupStats } from '../report/index.js';
import type { LeaderboardRow, LeaderboardSection } from './build.js';

export interface Cell {
  text: string;
  detail?: string;
  /** A relative link (the run's viewer). */
  href?: string;
  num?: boolean;
  /** The detail continues the text ("42.0% ± 3.1% …", "12 of 40") instead of qualifying it. */
  inline?: boolean;
}

export interface Table {
  title: string;
  head: string[];
  rows: Cell[][];
}

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const num = (text: string, detail?: string): Cell => ({ text, num: true, ...(detail ? { detail } : {}) });
const continued = (text: string, detail?: string): Cell => ({ ...num(text, detail), inline: true });

/** "42.0%" with "± 3.1% [35.9%, 48.1%]" beside it: report's rate text, split for layout. */
function rateCell(rate: number | null, ci: GroupStats['success_rate_ci'] | undefined): Cell {
  if (!ci) return num(pct(rate));
  const main = pct(rate);
  return continued(main, rateText(rate, ci).slice(main.length).trim() || undefined);
}

const NO_LLM_AGENTS = ['oracle', 'scripted'];

function identityCells(r: LeaderboardRow, i: number): Cell[] {
  const a = r.agent;
  const agent: Cell = { text: agentLabel(a) || 'unknown', ...(a.source === 'image' ? { detail: 'reference image' } : {}) };
  const noLlm = !r.model && a.name !== null && NO_LLM_AGENTS.includes(a.name);
  const model: Cell = { text: r.model ?? (noLlm ? '— (no LLM)' : 'unknown'), ...(r.provider ? { detail: r.provider } : {}) };
  const run: Cell = { text: r.run, ...(r.viewer ? { href: r.viewer } : {}) };
  return [num(String(i + 1)), agent, model, run];
}

const IDENTITY_HEAD = ['#', 'Agent', 'Model', 'Run'];

function successTable(s: LeaderboardSection): Table {
  const macro = s.splits.length > 0;
  const head = [...IDENTITY_HEAD, 'N', 'Scenarios', ...(macro ? ['Mean of splits'] : []), 'Overall (micro)', ...s.splits];
  const rows = s.rows.map((r, i) => {
    const o = r.report.overall;
    return [
      ...identityCells(r, i),
      num(String(r.report.num_runs)),
      continued(String(o.scenarios), s.restricted ? `of ${r.scenarios_run}` : undefined),
      ...(macro ? [rateCell(r.report.macro.success_rate, r.report.macro.success_rate_ci)] : []),
      rateCell(o.success_rate, o.success_rate_ci),
      ...s.splits.map((sp) => {
        const g = r.report.splits[sp];
        return g ? rateCell(g.success_rate, g.success_rate_ci) : num('—');
      }),
    ];
  });
  return { title: 'Success rate by capability (± SE [95% CI])', head, rows };
}

function costCell(usdValue: number | null, unpriced: readonly string[]): Cell {
  return num(usd(usdValue), usdValue === null && unpriced.length ? `no price for ${unpriced.join(', ')}` : undefined);
}

function passCostTable(s: LeaderboardSection): Table {
  const head = [...IDENTITY_HEAD, ...s.ks.map((k) => `pass@${k}`), ...s.ks.map((k) => `pass^${k}`), 'Sealed', 'Errors', 'Program failed', 'Agent tokens / run (in / out)', 'Agent cost / run', 'Total cost / run', 'Time / run'];
  const rows = s.rows.map((r, i) => {
    const o = r.report.overall;
    const p = r.per_scenario_run;
    const cost = o.usage.cost;
    const tokens = p.agent_input_tokens === null || p.agent_output_tokens === null ? '—' : `${int(p.agent_input_tokens)} / ${int(p.agent_output_tokens)}`;
    const unpricedAll = [...new Set([...cost.agent.unpriced_models, ...cost.app_agents.unpriced_models, ...cost.judge.unpriced_models])];
    return [
      ...identityCells(r, i),
      ...s.ks.map((k) => num(pct(o.pass_at_k[k]?.value))),
      ...s.ks.map((k) => num(pct(o.pass_hat_k[k]?.value))),
      num(sealedCell(o)),
      num(errorsText(o)),
      num(programFailedText(o)),
      num(tokens),
      costCell(p.agent_cost_usd, cost.agent.unpriced_models),
      costCell(p.total_cost_usd, unpricedAll),
      num(seconds(p.seconds)),
    ];
  });
  return { title: 'pass@k, pass^k, sealed runs, errors, program failures, tokens, cost and time (per scenario run)', head, rows };
}

export function sectionTables(s: LeaderboardSection): Table[] {
  return [successTable(s), passCostTable(s)];
}

/** What a reader must know before comparing the rows of a section. */
export function sectionNotes(s: LeaderboardSection): string[] {
  const sc = s.scenarios;
  const notes: string[] = [];
  if (s.rows.length === 1) notes.push(`One run, ${sc.common} scenario(s).`);
  else if (sc.same) notes.push(`All ${s.rows.length} rows ran the same ${sc.common} scenario(s).`);
  else if (s.restricted) notes.push(`The rows ran different scenario sets: every row is restricted to the ${sc.common} scenario(s) all of them ran (--common-scenarios; ${sc.union} in any row).`);
  else
    notes.push(
      `The rows ran different scenario sets: ${sc.common} scenario(s) are common to all ${s.rows.length} rows, ${sc.union} are in some row. ` +
        'The comparison is only fair on the common scenarios: --common-scenarios restricts every row to them.',
    );
  // rows whose runs say nothing either way (written before sealing existed) are not named
  const open = s.rows.filter((r) => {
    const n = r.report.overall.network;
    return n && (n.sealed || n.unsealed) && n.sealed < r.report.overall.runs;
  }).map((r) => r.run);
  if (open.length)
    notes.push(`Not every run of ${open.join(', ')} had a sealed network (Sealed column: sealed runs of all runs): its agent could reach more than its world and the model gateway.`);
  return [...notes, ...s.notes];
}
