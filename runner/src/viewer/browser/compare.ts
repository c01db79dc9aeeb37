// Two runs of the same scenarios side by side: verdict changes and the first diverging action.
import type { ComparePage, CompareSideStatus } from '../model/pages.js';
import { append, clear, el } from './dom.js';
import { readHash, writeHash } from './hash-state.js';
import { badge, topBar } from './widgets.js';

export function renderCompare(app: HTMLElement, d: ComparePage): void {
  let onlyChanged = readHash().changed === '1';
  append(app, topBar(d.crumbs));
  const main = el('main');
  const changed = d.rows.filter((r) => r.a.status !== r.b.status).length;
  append(main, el('h1', { text: 'Compare ' + d.a.name + ' ↔ ' + d.b.name }), el('div', { class: 'sub', text: d.rows.length + ' scenarios, ' + changed + ' with a different verdict' }));
  const box = el('input', { type: 'checkbox', id: 'c-changed' });
  box.checked = onlyChanged;
  append(main, el('div', { class: 'filters' }, el('label', null, box, ' only changed verdicts')));
  const t = el('table', { class: 'grid', id: 'compare' }, el('thead', null, el('tr', null, ['Scenario', d.a.name, d.b.name, 'First diverging action'].map((h) => el('th', { text: h })))));
  const tb = el('tbody');
  t.appendChild(tb);
  const cell = (side: CompareSideStatus) => (side.href ? el('td', null, el('a', { href: side.href }, badge(side.status))) : el('td', null, badge('none', 'MISSING')));
  function apply(): void {
    writeHash({ changed: onlyChanged ? '1' : '' });
    clear(tb);
    for (const r of d.rows) {
      if (onlyChanged && r.a.status === r.b.status) continue;
      const div = r.divergence;
      tb.appendChild(
        el('tr', { class: r.a.status !== r.b.status ? 'st-fail' : '' }, el('td', { text: r.id }), cell(r.a), cell(r.b),
          el('td', null, div ? [el('div', { text: 'action #' + (div.index + 1) }), el('pre', { text: d.a.name + ': ' + (div.a || '(none)') }), el('pre', { text: d.b.name + ': ' + (div.b || '(none)') })] : el('span', { class: 'muted', text: 'same actions' }))),
      );
    }
  }
  box.addEventListener('change', () => {
    onlyChanged = box.checked;
    apply();
  });
  append(main, t);
  append(app, main);
  apply();
}
