// pass@N dashboard (run table, pass@k / pass^k, per-scenario run matrix) and the landing page
// of a folder of runs.
import type { ExperimentPage, LandingPage } from '../model/pages.js';
import { append, clear, el } from './dom.js';
import { fmtInt, fmtPct } from './format.js';
import { readHash, writeHash } from './hash-state.js';
import { badge, card, gatewayCard, statusBar, topBar } from './widgets.js';

const rate = (pass: number, fail: number): number | null => (pass + fail ? pass / (pass + fail) : null);

export function renderExperiment(app: HTMLElement, d: ExperimentPage): void {
  const st = readHash();
  const state = { q: st.q || '', split: st.split || '', flaky: st.flaky || '' };
  append(app, topBar(d.crumbs));
  const main = el('main');
  const tot = { pass: 0, fail: 0, error: 0, running: 0 };
  for (const r of d.runs) {
    tot.pass += r.pass;
    tot.fail += r.fail;
    tot.error += r.error;
    tot.running += r.running;
  }
  append(main, el('h1', { text: d.name }), el('div', { class: 'sub', text: d.subtitle }));
  append(main, el('div', { class: 'cards', id: 'counters' }, card('Runs', String(d.runs.length)), card('Scenarios', fmtInt(d.scenarios.length)),
    card('Pass', fmtInt(tot.pass), 'pass'), card('Fail', fmtInt(tot.fail), 'fail'), card('Error', fmtInt(tot.error), 'error'), card('Running', fmtInt(tot.running), 'running'),
    card('Pass rate (judged)', fmtPct(rate(tot.pass, tot.fail))), gatewayCard(d.gateway)));
  const kt = el('table', { class: 'grid', id: 'passk' }, el('thead', null, el('tr', null, el('th', { text: 'k' }), el('th', { text: 'pass@k' }), el('th', { text: 'pass^k' }), el('th', { text: 'scenarios (≥k judged runs)' }))));
  const kb = el('tbody');
  kt.appendChild(kb);
  for (const p of d.passK) kb.appendChild(el('tr', null, el('td', { text: String(p.k) }), el('td', { class: 'num', text: fmtPct(p.passAt) }), el('td', { class: 'num', text: fmtPct(p.passHat) }), el('td', { class: 'num', text: fmtInt(p.n) })));
  append(main, el('h2', { text: 'pass@k and pass^k' }), kt);
  const rt = el('table', { class: 'grid', id: 'runs' }, el('thead', null, el('tr', null, ['Run', 'Pass', 'Fail', 'Error', 'Running', 'Done', 'Pass rate'].map((h) => el('th', { text: h })))));
  const rb = el('tbody');
  rt.appendChild(rb);
  for (const r of d.runs) {
    rb.appendChild(el('tr', null, el('td', null, el('a', { href: r.href, text: r.name })), el('td', { class: 'num', text: r.pass }), el('td', { class: 'num', text: r.fail }), el('td', { class: 'num', text: r.error }),
      el('td', { class: 'num', text: r.running }), el('td', null, r.pass + r.fail + r.error + (r.expected !== null ? '/' + r.expected : ''), statusBar(r)),
      el('td', { class: 'num', text: fmtPct(rate(r.pass, r.fail)) })));
  }
  append(main, el('h2', { text: 'Runs' }), rt);
  if (d.compareHref) append(main, el('p', null, el('a', { href: d.compareHref, text: 'Compare ' + d.runs[0]!.name + ' with ' + d.runs[1]!.name }), ' (verdict changes, first diverging action)'));
  const search = el('input', { type: 'search', id: 'm-text', placeholder: 'Filter scenarios…', 'aria-label': 'Scenario filter' });
  search.value = state.q;
  const splitSel = el('select', { id: 'm-split' }, el('option', { value: '', text: 'All splits' }), d.splitNames.map((s) => el('option', { value: s, text: s })));
  splitSel.value = state.split;
  const flaky = el('input', { type: 'checkbox', id: 'm-flaky' });
  flaky.checked = state.flaky === '1';
  const shown = el('span', { class: 'muted' });
  append(main, el('h2', { text: 'Scenario × run matrix' }), el('div', { class: 'filters' }, search, splitSel, el('label', null, flaky, ' only mixed outcomes'), shown));
  const mt = el('table', { class: 'grid', id: 'matrix' }, el('thead', null, el('tr', null, el('th', { text: 'Scenario' }), el('th', { text: 'Split' }), d.runs.map((r) => el('th', { text: r.name })), el('th', { text: 'Passes' }))));
  const mb = el('tbody');
  mt.appendChild(mb);
  const rows = d.scenarios.map((s) => {
    let passes = 0;
    let judged = 0;
    const cells = s.cells.map((c) => {
      if (!c) return el('td', null, badge('none', 'NOT RUN'));
      if (c.status === 'pass') passes++;
      if (c.status === 'pass' || c.status === 'fail') judged++;
      return el('td', null, el('a', { href: c.href }, badge(c.status)));
    });
    const tr = el('tr', { 'data-id': s.id }, el('td', { text: s.id }), el('td', { text: s.split }), cells, el('td', { class: 'num', text: passes + '/' + judged }));
    return { s, tr, mixed: passes > 0 && passes < judged };
  });
  append(main, mt);
  append(app, main);
  function apply(): void {
    writeHash({ q: state.q, split: state.split, flaky: state.flaky });
    const q = state.q.toLowerCase();
    let n = 0;
    clear(mb);
    for (const r of rows) {
      if ((!q || r.s.id.toLowerCase().indexOf(q) >= 0) && (!state.split || r.s.split === state.split) && (!state.flaky || r.mixed)) {
        mb.appendChild(r.tr);
        n++;
      }
    }
    shown.textContent = n + ' of ' + rows.length + ' shown';
  }
  search.addEventListener('input', () => {
    state.q = search.value;
    apply();
  });
  splitSel.addEventListener('change', () => {
    state.split = splitSel.value;
    apply();
  });
  flaky.addEventListener('change', () => {
    state.flaky = flaky.checked ? '1' : '';
    apply();
  });
  apply();
}

export function renderLanding(app: HTMLElement, d: LandingPage): void {
  const state = { q: readHash().q || '' };
  append(app, topBar(d.crumbs));
  const main = el('main');
  append(main, el('h1', { text: d.name }), el('div', { class: 'sub', text: d.entries.length + ' runs and pass@N experiments' }));
  const search = el('input', { type: 'search', id: 'l-text', placeholder: 'Filter by name, model, agent…', 'aria-label': 'Filter' });
  search.value = state.q;
  append(main, el('div', { class: 'filters' }, search));
  const t = el('table', { class: 'grid', id: 'entries' }, el('thead', null, el('tr', null, ['Name', 'Kind', 'Model', 'Agent', 'Started', 'Pass', 'Fail', 'Error', 'Running', 'Progress', 'Pass rate'].map((h) => el('th', { text: h })))));
  const tb = el('tbody');
  t.appendChild(tb);
  const rows = d.entries.map((e) => {
    const done = e.pass + e.fail + e.error;
    const tr = el('tr', { 'data-name': e.name }, el('td', null, el('a', { href: e.href, text: e.name })), el('td', { text: e.kind }), el('td', { text: e.model }), el('td', { text: e.agent }),
      el('td', { text: (e.startedAt || '').replace('T', ' ').slice(0, 16) }), el('td', { class: 'num', text: e.pass }), el('td', { class: 'num', text: e.fail }), el('td', { class: 'num', text: e.error }), el('td', { class: 'num', text: e.running }),
      el('td', null, done + (e.expected !== null ? '/' + e.expected : ''), statusBar(e)), el('td', { class: 'num', text: fmtPct(rate(e.pass, e.fail)) }));
    return { text: (e.name + ' ' + e.model + ' ' + e.agent + ' ' + e.kind).toLowerCase(), tr };
  });
  function apply(): void {
    writeHash({ q: state.q });
    clear(tb);
    const q = state.q.toLowerCase();
    for (const r of rows) if (!q || r.text.indexOf(q) >= 0) tb.appendChild(r.tr);
  }
  search.addEventListener('input', () => {
    state.q = search.value;
    apply();
  });
  append(main, t);
  append(app, main);
  apply();
}
