// pass@N dashboard (run table, pass@k / pass^k, per-scenario run matrix) and the landing page
// of a folder of runs.
export const CLIENT_EXPERIMENT_JS = String.raw`
RENDERERS.experiment = function (app, d) {
  var st = readHash();
  var state = { q: st.q || '', split: st.split || '', flaky: st.flaky || '' };
  append(app, topBar(d.crumbs));
  var main = el('main');
  var tot = { pass: 0, fail: 0, error: 0, running: 0 };
  d.runs.forEach(function (r) { tot.pass += r.pass; tot.fail += r.fail; tot.error += r.error; tot.running += r.running; });
  append(main, el('h1', { text: d.name }), el('div', { class: 'sub', text: d.subtitle }));
  append(main, el('div', { class: 'cards', id: 'counters' }, card('Runs', String(d.runs.length)), card('Scenarios', fmtInt(d.scenarios.length)),
    card('Pass', fmtInt(tot.pass), 'pass'), card('Fail', fmtInt(tot.fail), 'fail'), card('Error', fmtInt(tot.error), 'error'), card('Running', fmtInt(tot.running), 'running'),
    card('Pass rate (judged)', fmtPct(tot.pass + tot.fail ? tot.pass / (tot.pass + tot.fail) : null)), gatewayCard(d.gateway)));
  var kt = el('table', { class: 'grid', id: 'passk' }, el('thead', null, el('tr', null, el('th', { text: 'k' }), el('th', { text: 'pass@k' }), el('th', { text: 'pass^k' }), el('th', { text: 'scenarios (≥k judged runs)' }))));
  var kb = el('tbody'); kt.appendChild(kb);
  d.passK.forEach(function (p) { kb.appendChild(el('tr', null, el('td', { text: String(p.k) }), el('td', { class: 'num', text: fmtPct(p.passAt) }), el('td', { class: 'num', text: fmtPct(p.passHat) }), el('td', { class: 'num', text: fmtInt(p.n) }))); });
  append(main, el('h2', { text: 'pass@k and pass^k' }), kt);
  var rt = el('table', { class: 'grid', id: 'runs' }, el('thead', null, el('tr', null, ['Run', 'Pass', 'Fail', 'Error', 'Running', 'Done', 'Pass rate'].map(function (h) { return el('th', { text: h }); }))));
  var rb = el('tbody'); rt.appendChild(rb);
  d.runs.forEach(function (r) {
    rb.appendChild(el('tr', null, el('td', null, el('a', { href: r.href, text: r.name })), el('td', { class: 'num', text: r.pass }), el('td', { class: 'num', text: r.fail }), el('td', { class: 'num', text: r.error }),
      el('td', { class: 'num', text: r.running }), el('td', null, (r.pass + r.fail + r.error) + (r.expected !== null ? '/' + r.expected : ''), statusBar({ pass: r.pass, fail: r.fail, error: r.error, running: r.running, expected: r.expected })),
      el('td', { class: 'num', text: fmtPct(r.pass + r.fail ? r.pass / (r.pass + r.fail) : null) })));
  });
  append(main, el('h2', { text: 'Runs' }), rt);
  if (d.compareHref) append(main, el('p', null, el('a', { href: d.compareHref, text: 'Compare ' + d.runs[0].name + ' with ' + d.runs[1].name }), ' (verdict changes, first diverging action)'));
  var search = el('input', { type: 'search', id: 'm-text', placeholder: 'Filter scenarios…', 'aria-label': 'Scenario filter' }); search.value = state.q;
  var splitSel = el('select', { id: 'm-split' }, el('option', { value: '', text: 'All splits' }), d.splitNames.map(function (s) { return el('option', { value: s, text: s }); })); splitSel.value = state.split;
  var flaky = el('input', { type: 'checkbox', id: 'm-flaky' }); flaky.checked = state.flaky === '1';
  var shown = el('span', { class: 'muted' });
  append(main, el('h2', { text: 'Scenario × run matrix' }), el('div', { class: 'filters' }, search, splitSel, el('label', null, flaky, ' only mixed outcomes'), shown));
  var mt = el('table', { class: 'grid', id: 'matrix' }, el('thead', null, el('tr', null, el('th', { text: 'Scenario' }), el('th', { text: 'Split' }), d.runs.map(function (r) { return el('th', { text: r.name }); }), el('th', { text: 'Passes' }))));
  var mb = el('tbody'); mt.appendChild(mb);
  var rows = d.scenarios.map(function (s) {
    var passes = 0, judged = 0;
    var tr = el('tr', { 'data-id': s.id }, el('td', { text: s.id }), el('td', { text: s.split }), s.cells.map(function (c) {
      if (!c) return el('td', null, badge('none', 'NOT RUN'));
      if (c.status === 'pass') passes++; if (c.status === 'pass' || c.status === 'fail') judged++;
      return el('td', null, el('a', { href: c.href }, badge(c.status)));
    }), el('td', { class: 'num', text: passes + '/' + judged }));
    return { s: s, tr: tr, mixed: passes > 0 && passes < judged };
  });
  append(main, mt); append(app, main);
  function apply() {
    writeHash({ q: state.q, split: state.split, flaky: state.flaky });
    var q = state.q.toLowerCase(), n = 0; clear(mb);
    rows.forEach(function (r) { if ((!q || r.s.id.toLowerCase().indexOf(q) >= 0) && (!state.split || r.s.split === state.split) && (!state.flaky || r.mixed)) { mb.appendChild(r.tr); n++; } });
    shown.textContent = n + ' of ' + rows.length + ' shown';
  }
  search.addEventListener('input', function () { state.q = search.value; apply(); });
  splitSel.addEventListener('change', function () { state.split = splitSel.value; apply(); });
  flaky.addEventListener('change', function () { state.flaky = flaky.checked ? '1' : ''; apply(); });
  apply();
};
RENDERERS.landing = function (app, d) {
  var st = readHash(); var state = { q: st.q || '' };
  append(app, topBar(d.crumbs));
  var main = el('main');
  append(main, el('h1', { text: d.name }), el('div', { class: 'sub', text: d.entries.length + ' runs and pass@N experiments' }));
  var search = el('input', { type: 'search', id: 'l-text', placeholder: 'Filter by name, model, agent…', 'aria-label': 'Filter' }); search.value = state.q;
  append(main, el('div', { class: 'filters' }, search));
  var t = el('table', { class: 'grid', id: 'entries' }, el('thead', null, el('tr', null, ['Name', 'Kind', 'Model', 'Agent', 'Started', 'Pass', 'Fail', 'Error', 'Running', 'Progress', 'Pass rate'].map(function (h) { return el('th', { text: h }); }))));
  var tb = el('tbody'); t.appendChild(tb);
  var rows = d.entries.map(function (e) {
    var done = e.pass + e.fail + e.error;
    return { e: e, text: (e.name + ' ' + e.model + ' ' + e.agent + ' ' + e.kind).toLowerCase(), tr: el('tr', { 'data-name': e.name }, el('td', null, el('a', { href: e.href, text: e.name })), el('td', { text: e.kind }), el('td', { text: e.model }), el('td', { text: e.agent }),
      el('td', { text: (e.startedAt || '').replace('T', ' ').slice(0, 16) }), el('td', { class: 'num', text: e.pass }), el('td', { class: 'num', text: e.fail }), el('td', { class: 'num', text: e.error }), el('td', { class: 'num', text: e.running }),
      el('td', null, done + (e.expected !== null ? '/' + e.expected : ''), statusBar(e)), el('td', { class: 'num', text: fmtPct(e.pass + e.fail ? e.pass / (e.pass + e.fail) : null) })) };
  });
  function apply() { writeHash({ q: state.q }); clear(tb); var q = state.q.toLowerCase(); rows.forEach(function (r) { if (!q || r.text.indexOf(q) >= 0) tb.appendChild(r.tr); }); }
  search.addEventListener('input', function () { state.q = search.value; apply(); });
  append(main, t); append(app, main); apply();
};
`;
