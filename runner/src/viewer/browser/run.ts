// Run index: counters, split cards, a filterable, sortable scenario table; state in the URL
// hash. A run dir without results yet gets the waiting page.
import type { RunPage, WaitingPage } from '../model/pages.js';
import type { IndexRow } from '../model/types.js';
import { append, clear, el } from './dom.js';
import { cmpValues, collator, fmtCost, fmtDur, fmtInt, fmtPct, fmtTok } from './format.js';
import { readHash, writeHash } from './hash-state.js';
import { badge, card, countRows, gatewayCard, statusBar, topBar } from './widgets.js';

type ColumnKey = 'status' | 'id' | 'split' | 'turn' | 'llmCalls' | 'tokensIn' | 'tokensOut' | 'costUsd' | 'durationS' | 'toolCalls' | 'info';

const RUN_COLUMNS: ReadonlyArray<{ key: ColumnKey; label: string }> = [
  { key: 'status', label: 'Status' }, { key: 'id', label: 'Scenario' }, { key: 'split', label: 'Split' },
  { key: 'turn', label: 'Turn' }, { key: 'llmCalls', label: 'LLM calls' }, { key: 'tokensIn', label: 'Tokens in' },
  { key: 'tokensOut', label: 'Tokens out' }, { key: 'costUsd', label: 'Cost' }, { key: 'durationS', label: 'Duration' },
  { key: 'toolCalls', label: 'Tool calls' }, { key: 'info', label: 'Info' },
];
const STATUS_ORDER: Record<IndexRow['status'], number> = { running: 0, error: 1, fail: 2, pass: 3 };

function runCell(r: IndexRow, key: ColumnKey): HTMLTableCellElement {
  switch (key) {
    case 'status': return el('td', null, badge(r.status), r.errorKind || r.stuckLoop ? el('div', { class: 'muted', text: r.errorKind || 'stuck loop' }) : null);
    case 'id': return el('td', null, el('a', { href: r.href, text: r.id }));
    case 'tokensIn': case 'tokensOut': case 'llmCalls': case 'toolCalls': return el('td', { class: 'num', text: fmtInt(r[key]) });
    case 'costUsd': return el('td', { class: 'num', text: fmtCost(r.costUsd) });
    case 'durationS': return el('td', { class: 'num', text: fmtDur(r.durationS) });
    case 'info': return el('td', { class: 'info', title: r.info, text: r.info });
    default: return el('td', { text: r[key] || '' });
  }
}

const runSortValue = (r: IndexRow, key: string): unknown => (key === 'status' ? STATUS_ORDER[r.status] : r[key as ColumnKey]);

export function renderRun(app: HTMLElement, d: RunPage): void {
  const st = readHash();
  const state = { status: st.status || '', split: st.split || '', q: st.q || '', sort: st.sort || 'id', dir: st.dir || 'asc' };
  const c = countRows(d.rows);
  const expected = d.expected === null ? null : Math.max(d.expected, d.rows.length);
  c.expected = expected;
  append(app, topBar(d.crumbs));
  const main = el('main');
  append(main, el('h1', { text: d.name }), el('div', { class: 'sub', text: d.subtitle }));
  append(main, el('div', { class: 'cards', id: 'counters' },
    card('Expected', expected === null ? '—' : fmtInt(expected)), card('Completed', fmtInt(c.completed)),
    card('Running', fmtInt(c.running), 'running'), card('Pass', fmtInt(c.pass), 'pass'), card('Fail', fmtInt(c.fail), 'fail'),
    card('Error', fmtInt(c.error), 'error'), card('Pass rate (judged)', fmtPct(c.judged ? c.pass / c.judged : null)),
    card('Tokens in / out', fmtTok(c.tokensIn) + ' / ' + fmtTok(c.tokensOut)),
    c.appIn || c.appOut ? card('Of which app agents', fmtTok(c.appIn) + ' / ' + fmtTok(c.appOut)) : null,
    c.judgeIn || c.judgeOut ? card('Judge tokens in / out', fmtTok(c.judgeIn) + ' / ' + fmtTok(c.judgeOut)) : null,
    card('Cost', c.costKnown ? fmtCost(c.cost) + (c.costKnown < d.rows.length ? ' (partial)' : '') : '—'), gatewayCard(d.gateway)));
  append(main, statusBar(c));
  const splitBox = el('div', { class: 'splits' });
  if (d.splits.length) append(main, el('h2', { text: 'Splits' }), splitBox);
  for (const s of d.splits) {
    const rows = d.rows.filter((r) => r.split === s.name);
    const sc = countRows(rows);
    sc.expected = s.expected === null ? null : Math.max(s.expected, rows.length);
    const onclick = () => {
      state.split = state.split === s.name ? '' : s.name;
      apply();
    };
    splitBox.appendChild(el('div', { class: 'card split' + (state.split === s.name ? ' sel' : ''), 'data-split': s.name, onclick },
      el('div', { class: 'l', text: s.name }), el('div', { class: 'v', text: sc.judged ? fmtPct(sc.pass / sc.judged) : '—' }),
      el('div', { class: 'l', text: sc.pass + '/' + sc.judged + ' judged pass' + (sc.error ? ', ' + sc.error + ' error' : '') + (sc.expected !== null ? ', ' + sc.completed + '/' + sc.expected + ' done' : '') }),
      el('div', { class: 'l', text: fmtTok(sc.tokensIn + sc.judgeIn) + ' in / ' + fmtTok(sc.tokensOut + sc.judgeOut) + ' out' + (sc.costKnown ? ', ' + fmtCost(sc.cost) + (sc.costKnown < rows.length ? ' (partial)' : '') : '') }),
      statusBar(sc)));
  }
  const statusSel = el('select', { id: 'f-status', 'aria-label': 'Status filter' }, ['', 'pass', 'fail', 'error', 'running'].map((s) => el('option', { value: s, text: s ? s.toUpperCase() : 'All statuses' })));
  const splitSel = el('select', { id: 'f-split', 'aria-label': 'Split filter' }, el('option', { value: '', text: 'All splits' }), d.splits.map((s) => el('option', { value: s.name, text: s.name })));
  const search = el('input', { type: 'search', id: 'f-text', placeholder: 'Filter by id, reason, model…', 'aria-label': 'Text filter' });
  const shown = el('span', { class: 'muted', id: 'shown' });
  statusSel.value = state.status;
  splitSel.value = state.split;
  search.value = state.q;
  statusSel.addEventListener('change', () => {
    state.status = statusSel.value;
    apply();
  });
  splitSel.addEventListener('change', () => {
    state.split = splitSel.value;
    apply();
  });
  search.addEventListener('input', () => {
    state.q = search.value;
    apply();
  });
  append(main, el('h2', { text: 'Scenarios' }), el('div', { class: 'filters' }, statusSel, splitSel, search, shown));
  const head = el('tr');
  const ths = RUN_COLUMNS.map((col) => {
    const onclick = () => {
      if (state.sort === col.key) state.dir = state.dir === 'asc' ? 'desc' : 'asc';
      else {
        state.sort = col.key;
        state.dir = 'asc';
      }
      apply();
    };
    const th = el('th', { class: 'sortable', 'data-key': col.key, text: col.label, onclick });
    head.appendChild(th);
    return th;
  });
  const tbody = el('tbody');
  const trs = d.rows.map((r) => {
    const tr = el('tr', { class: 'st-' + r.status, 'data-status': r.status, 'data-split': r.split, 'data-id': r.id });
    for (const col of RUN_COLUMNS) tr.appendChild(runCell(r, col.key));
    return { row: r, tr, text: (r.id + ' ' + r.info + ' ' + r.model + ' ' + r.errorKind + (r.stuckLoop ? ' stuck loop' : '') + ' ' + r.split).toLowerCase() };
  });
  append(main, el('table', { class: 'grid', id: 'scenarios' }, el('thead', null, head), tbody));
  append(app, main);
  function apply(): void {
    writeHash({ status: state.status, split: state.split, q: state.q, sort: state.sort === 'id' ? '' : state.sort, dir: state.dir === 'asc' ? '' : state.dir });
    statusSel.value = state.status;
    splitSel.value = state.split;
    for (const n of Array.from(splitBox.children)) n.className = 'card split' + (n.getAttribute('data-split') === state.split ? ' sel' : '');
    const q = state.q.toLowerCase().trim();
    const sign = state.dir === 'desc' ? -1 : 1;
    const sorted = trs.slice().sort((a, b) => sign * cmpValues(runSortValue(a.row, state.sort), runSortValue(b.row, state.sort)) || collator.compare(a.row.id, b.row.id));
    let n = 0;
    clear(tbody);
    for (const t of sorted) {
      const ok = (!state.status || t.row.status === state.status) && (!state.split || t.row.split === state.split) && (!q || t.text.indexOf(q) >= 0);
      if (ok) {
        tbody.appendChild(t.tr);
        n++;
      }
    }
    for (const th of ths) {
      if (th.getAttribute('data-key') === state.sort) th.setAttribute('aria-sort', state.dir === 'desc' ? 'descending' : 'ascending');
      else th.removeAttribute('aria-sort');
    }
    shown.textContent = n + ' of ' + trs.length + ' shown';
  }
  apply();
}

export function renderWaiting(app: HTMLElement, d: WaitingPage): void {
  append(app, topBar(d.crumbs));
  append(app, el('main', null, el('h1', { text: d.name }), el('p', null, badge('running', 'STARTING'), ' Waiting for results…'),
    el('div', { class: 'cards' }, card('Model', d.model || '—'), card('Agent', d.agent || '—'), card('Scenarios', d.expected === null ? '—' : fmtInt(d.expected)), card('Started', d.startedAt || '—'))));
}
