// Run index: counters, split cards, a filterable, sortable scenario table; state in the URL hash.
export const CLIENT_RUN_JS = String.raw`
var RUN_COLUMNS = [
  { key: 'status', label: 'Status' }, { key: 'id', label: 'Scenario' }, { key: 'split', label: 'Split' },
  { key: 'turn', label: 'Turn' }, { key: 'llmCalls', label: 'LLM calls', num: true }, { key: 'tokensIn', label: 'Tokens in', num: true },
  { key: 'tokensOut', label: 'Tokens out', num: true }, { key: 'costUsd', label: 'Cost', num: true }, { key: 'durationS', label: 'Duration', num: true },
  { key: 'toolCalls', label: 'Tool calls', num: true }, { key: 'info', label: 'Info' }
];
var STATUS_ORDER = { running: 0, error: 1, fail: 2, pass: 3 };
function runCell(r, key) {
  switch (key) {
    case 'status': return el('td', null, badge(r.status), r.errorKind ? el('div', { class: 'muted', text: r.errorKind }) : null);
    case 'id': return el('td', null, el('a', { href: r.href, text: r.id }));
    case 'tokensIn': case 'tokensOut': case 'llmCalls': case 'toolCalls': return el('td', { class: 'num', text: fmtInt(r[key]) });
    case 'costUsd': return el('td', { class: 'num', text: fmtCost(r.costUsd) });
    case 'durationS': return el('td', { class: 'num', text: fmtDur(r.durationS) });
    case 'info': return el('td', { class: 'info', title: r.info, text: r.info });
    default: return el('td', { text: r[key] || '' });
  }
}
function runSortValue(r, key) { return key === 'status' ? STATUS_ORDER[r.status] : r[key]; }
RENDERERS.run = function (app, d) {
  var st = readHash();
  var state = { status: st.status || '', split: st.split || '', q: st.q || '', sort: st.sort || 'id', dir: st.dir || 'asc' };
  var c = countRows(d.rows);
  var expected = d.expected === null ? null : Math.max(d.expected, d.rows.length);
  c.expected = expected;
  append(app, topBar(d.crumbs));
  var main = el('main');
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
  var splitBox = el('div', { class: 'splits' });
  if (d.splits.length) append(main, el('h2', { text: 'Splits' }), splitBox);
  d.splits.forEach(function (s) {
    var rows = d.rows.filter(function (r) { return r.split === s.name; });
    var sc = countRows(rows); sc.expected = s.expected === null ? null : Math.max(s.expected, rows.length);
    var node = el('div', { class: 'card split' + (state.split === s.name ? ' sel' : ''), 'data-split': s.name, onclick: function () { state.split = state.split === s.name ? '' : s.name; apply(); } },
      el('div', { class: 'l', text: s.name }), el('div', { class: 'v', text: sc.judged ? fmtPct(sc.pass / sc.judged) : '—' }),
      el('div', { class: 'l', text: sc.pass + '/' + sc.judged + ' judged pass' + (sc.error ? ', ' + sc.error + ' error' : '') + (sc.expected !== null ? ', ' + sc.completed + '/' + sc.expected + ' done' : '') }),
      el('div', { class: 'l', text: fmtTok(sc.tokensIn + sc.judgeIn) + ' in / ' + fmtTok(sc.tokensOut + sc.judgeOut) + ' out' + (sc.costKnown ? ', ' + fmtCost(sc.cost) + (sc.costKnown < rows.length ? ' (partial)' : '') : '') }),
      statusBar(sc));
    splitBox.appendChild(node);
  });
  var statusSel = el('select', { id: 'f-status', 'aria-label': 'Status filter' }, ['', 'pass', 'fail', 'error', 'running'].map(function (s) { return el('option', { value: s, text: s ? s.toUpperCase() : 'All statuses' }); }));
  var splitSel = el('select', { id: 'f-split', 'aria-label': 'Split filter' }, el('option', { value: '', text: 'All splits' }), d.splits.map(function (s) { return el('option', { value: s.name, text: s.name }); }));
  var search = el('input', { type: 'search', id: 'f-text', placeholder: 'Filter by id, reason, model…', 'aria-label': 'Text filter' });
  var shown = el('span', { class: 'muted', id: 'shown' });
  statusSel.value = state.status; splitSel.value = state.split; search.value = state.q;
  statusSel.addEventListener('change', function () { state.status = statusSel.value; apply(); });
  splitSel.addEventListener('change', function () { state.split = splitSel.value; apply(); });
  search.addEventListener('input', function () { state.q = search.value; apply(); });
  append(main, el('h2', { text: 'Scenarios' }), el('div', { class: 'filters' }, statusSel, splitSel, search, shown));
  var head = el('tr');
  var ths = RUN_COLUMNS.map(function (col) {
    var th = el('th', { class: 'sortable', 'data-key': col.key, text: col.label, onclick: function () { if (state.sort === col.key) state.dir = state.dir === 'asc' ? 'desc' : 'asc'; else { state.sort = col.key; state.dir = 'asc'; } apply(); } });
    head.appendChild(th); return th;
  });
  var tbody = el('tbody');
  var trs = d.rows.map(function (r) {
    var tr = el('tr', { class: 'st-' + r.status, 'data-status': r.status, 'data-split': r.split, 'data-id': r.id });
    RUN_COLUMNS.forEach(function (col) { tr.appendChild(runCell(r, col.key)); });
    return { row: r, tr: tr, text: (r.id + ' ' + r.info + ' ' + r.model + ' ' + r.errorKind + ' ' + r.split).toLowerCase() };
  });
  append(main, el('table', { class: 'grid', id: 'scenarios' }, el('thead', null, head), tbody));
  append(app, main);
  function apply() {
    writeHash({ status: state.status, split: state.split, q: state.q, sort: state.sort === 'id' ? '' : state.sort, dir: state.dir === 'asc' ? '' : state.dir });
    statusSel.value = state.status; splitSel.value = state.split;
    Array.prototype.forEach.call(splitBox.children, function (n) { n.className = 'card split' + (n.getAttribute('data-split') === state.split ? ' sel' : ''); });
    var q = state.q.toLowerCase().trim();
    var sign = state.dir === 'desc' ? -1 : 1;
    var sorted = trs.slice().sort(function (a, b) { return sign * cmpValues(runSortValue(a.row, state.sort), runSortValue(b.row, state.sort)) || collator.compare(a.row.id, b.row.id); });
    var n = 0;
    clear(tbody);
    sorted.forEach(function (t) {
      var ok = (!state.status || t.row.status === state.status) && (!state.split || t.row.split === state.split) && (!q || t.text.indexOf(q) >= 0);
      if (ok) { tbody.appendChild(t.tr); n++; }
    });
    ths.forEach(function (th) { var k = th.getAttribute('data-key'); if (k === state.sort) th.setAttribute('aria-sort', state.dir === 'desc' ? 'descending' : 'ascending'); else th.removeAttribute('aria-sort'); });
    shown.textContent = n + ' of ' + trs.length + ' shown';
  }
  apply();
};
RENDERERS.waiting = function (app, d) {
  append(app, topBar(d.crumbs));
  append(app, el('main', null, el('h1', { text: d.name }), el('p', null, badge('running', 'STARTING'), ' Waiting for results…'),
    el('div', { class: 'cards' }, card('Model', d.model || '—'), card('Agent', d.agent || '—'), card('Scenarios', d.expected === null ? '—' : fmtInt(d.expected)), card('Started', d.startedAt || '—'))));
};
`;
