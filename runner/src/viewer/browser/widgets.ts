// Pieces every page draws: status badges, the top bar with its breadcrumbs, counter cards, the
// pass/fail/error/running bar, and the counts of a set of index rows.
import type { Crumb } from '../model/pages.js';
import type { GatewayCounts } from '../../trace/traffic-lines.js';
import type { IndexRow } from '../model/types.js';
import { append, el, type Child } from './dom.js';
import { fmtInt } from './format.js';

export function badge(status: string, label?: string): HTMLSpanElement {
  return el('span', { class: 'badge ' + (status || 'none'), text: label || String(status || 'none').toUpperCase() });
}

export function topBar(crumbs: readonly Crumb[], extra?: Child): HTMLElement {
  const c = el('span', { class: 'crumbs' });
  crumbs.forEach((cr, i) => {
    if (i) append(c, ' / ');
    append(c, cr.href ? el('a', { href: cr.href, text: cr.label }) : el('b', { text: cr.label }));
  });
  return el('header', { class: 'top' }, c, el('span', { class: 'spacer' }), extra || null, el('span', { class: 'live', id: 'live' }));
}

export function card(label: string, value: string, cls?: string): HTMLDivElement {
  return el('div', { class: 'card ' + (cls || '') }, el('div', { class: 'v', text: value }), el('div', { class: 'l', text: label }));
}

/** The model gateway's counts (as the progress line shows them), while the run runs and after. */
export function gatewayCard(g: GatewayCounts | null): HTMLDivElement | null {
  if (!g) return null;
  // the agent side's spend, when the run counts it (a budget; docs/runner.md "Budgets")
  const spent = g.spent_tokens ? ' · spent ' + fmtInt(g.spent_tokens) + ' tokens' + (g.spent_usd ? ' ($' + g.spent_usd.toFixed(2) + ')' : '') : '';
  const node = card('Model gateway' + (g.running ? '' : ' (run ended)'), 'queued ' + fmtInt(g.queued) + ' · throttled ' + fmtInt(g.throttled) + ' · retried ' + fmtInt(g.retried) + spent);
  node.id = 'gateway-counts';
  node.title = fmtInt(g.requests) + ' requests, ' + fmtInt(g.gave_up) + ' given up' + (g.over_budget ? ', ' + fmtInt(g.over_budget) + ' refused over budget' : '');
  return node;
}

export interface Tally {
  pass: number;
  fail: number;
  error: number;
  running: number;
  expected?: number | null;
}

export function statusBar(c: Tally): HTMLDivElement {
  const total = Math.max(1, c.expected || c.pass + c.fail + c.error + c.running);
  const bar = el('div', { class: 'bar' });
  for (const [cls, n] of [['p', c.pass], ['f', c.fail], ['e', c.error], ['r', c.running]] as const) {
    const i = el('i', { class: cls });
    i.style.width = (100 * n) / total + '%';
    bar.appendChild(i);
  }
  return bar;
}

export interface RowCounts extends Tally {
  tokensIn: number;
  tokensOut: number;
  appIn: number;
  appOut: number;
  judgeIn: number;
  judgeOut: number;
  cost: number;
  /** Rows with a known cost. */
  costKnown: number;
  completed: number;
  judged: number;
}

export function countRows(rows: readonly IndexRow[]): RowCounts {
  const c: RowCounts = { pass: 0, fail: 0, error: 0, running: 0, tokensIn: 0, tokensOut: 0, appIn: 0, appOut: 0, judgeIn: 0, judgeOut: 0, cost: 0, costKnown: 0, completed: 0, judged: 0 };
  for (const r of rows) {
    c[r.status]++;
    c.tokensIn += r.tokensIn || 0;
    c.tokensOut += r.tokensOut || 0;
    c.appIn += r.appAgentTokensIn || 0;
    c.appOut += r.appAgentTokensOut || 0;
    c.judgeIn += r.judgeTokensIn || 0;
    c.judgeOut += r.judgeTokensOut || 0;
    if (r.costUsd !== null && r.costUsd !== undefined) {
      c.cost += r.costUsd;
      c.costKnown++;
    }
  }
  c.completed = c.pass + c.fail + c.error;
  c.judged = c.pass + c.fail;
  return c;
}
