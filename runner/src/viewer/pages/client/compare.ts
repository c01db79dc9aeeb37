// Two runs of the same scenarios side by side: verdict changes and the first diverging action.
export const CLIENT_COMPARE_JS = String.raw`
RENDERERS.compare = function (app, d) {
  var st = readHash(); var onlyChanged = st.changed === '1';
  append(app, topBar(d.crumbs));
  var main = el('main');
  var changed = d.rows.filter(function (r) { return r.a.status !== r.b.status; }).length;
  append(main, el('h1', { text: 'Compare ' + d.a.name + ' ↔ ' + d.b.name }), el('div', { class: 'sub', text: d.rows.length + ' scenarios, ' + changed + ' with a different verdict' }));
  var box = el('input', { type: 'checkbox', id: 'c-changed' }); box.checked = onlyChanged;
  append(main, el('div', { class: 'filters' }, el('label', null, box, ' only changed verdicts')));
  var t = el('table', { class: 'grid', id: 'compare' }, el('thead', null, el('tr', null, ['Scenario', d.a.name, d.b.name, 'First diverging action'].map(function (h) { return el('th', { text: h }); }))));
  var tb = el('tbody'); t.appendChild(tb);
  function cell(side) { return side.href ? el('td', null, el('a', { href: side.href }, badge(side.status))) : el('td', null, badge('none', 'MISSING')); }
  function apply() {
    writeHash({ changed: onlyChanged ? '1' : '' }); clear(tb);
    d.rows.forEach(function (r) {
      if (onlyChanged && r.a.status === r.b.status) return;
      var div = r.divergence;
      tb.appendChild(el('tr', { class: r.a.status !== r.b.status ? 'st-fail' : '' }, el('td', { text: r.id }), cell(r.a), cell(r.b),
        el('td', null, div ? [el('div', { text: 'action #' + (div.index + 1) }), el('pre', { text: d.a.name + ': ' + (div.a || '(none)') }), el('pre', { text: d.b.name + ': ' + (div.b || '(none)') })] : el('span', { class: 'muted', text: 'same actions' }))));
    });
  }
  box.addEventListener('change', function () { onlyChanged = box.checked; apply(); });
  append(main, t); append(app, main); apply();
};
`;
