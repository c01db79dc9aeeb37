// Trace page: header stats, the time-ordered timeline (drawn lazily in pages), in-trace
// search with highlighting, per-turn verdicts, and a side panel of the run's result.
import type { TraceView } from '../model/types.js';
import { append, clear, el, highlight, safeHref } from './dom.js';
import { fmtCost, fmtDur, fmtInt, fmtJson } from './format.js';
import { currentPage } from './page.js';
import { details, expand, itemText, renderItem } from './trace-items.js';
import { badge, topBar } from './widgets.js';

const TRACE_PAGE_SIZE = 150;
// Kept across live redraws of the same page.
const traceState = { q: '', limit: TRACE_PAGE_SIZE, keysBound: false };

function sidebar(d: TraceView): HTMLElement {
  const r = d.result;
  const side = el('aside', { class: 'side' });
  const verdict = el('div', { class: 'panel', id: 'verdict' }, el('h2', null, 'Result ', badge(d.row.status)));
  if (d.row.status === 'running') append(verdict, el('p', { class: 'muted', text: 'Still running: the verdict appears when result.json is written.' }));
  if (r.error) append(verdict, el('pre', { class: 'red', text: 'Error' + (r.errorKind ? ' (' + r.errorKind + ')' : '') + ': ' + r.error }));
  for (const f of r.failureReasons) append(verdict, el('pre', { class: 'red', text: f }));
  if (r.judgeMode) append(verdict, el('div', { class: 'muted', text: 'judge: ' + r.judgeMode + (r.judgeMode === 'hard-only' ? ' (no judge LLM: soft checks passed by design)' : '') }));
  if (r.timedOut) append(verdict, el('div', { class: 'red', text: 'timed out' }));
  const loop = r.stuckLoop;
  if (loop) {
    const where = loop.line ? ', threshold reached at events.jsonl line ' + loop.line : '';
    append(verdict, el('div', { class: 'red', id: 'stuck-loop', text: 'stuck loop: ' + loop.tool + ' × ' + loop.count + ' in a row, same result (stuck_loop_min_tool_calls = ' + loop.minToolCalls + where + ')' }), details('repeated arguments', el('pre', { text: fmtJson(loop.args) })));
  }
  if (d.daemon) append(verdict, el('div', { class: 'muted', text: 'daemon: ' + d.daemon.status + ', turn ' + d.daemon.turn + '/' + d.daemon.nbTurns + (d.daemon.simTime ? ', sim ' + d.daemon.simTime : '') + (d.daemon.reason ? ' — ' + d.daemon.reason : '') }));
  append(side, verdict);
  if (d.noise) {
    const n = d.noise;
    const parts = [
      n.toolFailureProbability === null ? 'tool augmentation off' : 'tool failures p=' + n.toolFailureProbability + ' (seed ' + n.toolSeed + '): ' + n.failures + ' injected',
      n.eventsPerMinute === null ? 'background events off' : 'background events ' + n.eventsPerMinute + '/min (seed ' + n.eventsSeed + '): ' + n.fired + ' of ' + n.planned + ' planned fired',
    ];
    append(side, el('div', { class: 'panel', id: 'noise' }, el('h2', { text: 'Noise phase' }), parts.map((p) => el('div', { text: p }))));
  }
  if (r.agentResponse) append(side, el('div', { class: 'panel' }, el('h2', { text: 'Final answer' }), el('pre', { text: r.agentResponse })));
  if (d.oracle.length) append(side, el('div', { class: 'panel' }, el('h2', { text: 'Oracle events (' + d.oracle.length + ')' }), d.oracle.map((o) => details(o.type + ' · ' + o.tool, el('pre', { text: fmtJson(o.args) })))));
  if (d.badLines.length) append(side, el('div', { class: 'panel' }, el('h2', { text: 'Unreadable trace lines (' + d.badLines.length + ')' }), d.badLines.map((b) => details('line ' + b.line, el('pre', { text: b.text })))));
  if (d.daemonLogTail) append(side, el('div', { class: 'panel' }, details('Daemon log (eventd.log, end)', el('pre', { class: 'out', text: d.daemonLogTail }))));
  append(side, el('div', { class: 'panel' }, el('h2', { text: 'Raw artifacts' }), d.rawFiles.map((f) => el('div', null, el('a', { href: encodeURIComponent(f.name), text: f.name }), el('span', { class: 'muted', text: '  ' + fmtInt(f.size) + ' bytes' })))));
  return side;
}

function stats(d: TraceView): string {
  const row = d.row;
  return [row.model || 'no LLM trace', row.llmCalls + ' LLM calls', fmtInt(row.tokensIn) + ' in / ' + fmtInt(row.tokensOut) + ' out',
    row.appAgentLlmCalls ? 'of which app agents ' + row.appAgentLlmCalls + ' calls, ' + fmtInt(row.appAgentTokensIn) + ' in / ' + fmtInt(row.appAgentTokensOut) + ' out' : '',
    row.judgeTokensIn || row.judgeTokensOut ? 'judge ' + fmtInt(row.judgeTokensIn) + ' in / ' + fmtInt(row.judgeTokensOut) + ' out' : '', 'cost ' + fmtCost(row.costUsd),
    (row.latencyMs / 1000).toFixed(1) + 's LLM time', 'duration ' + fmtDur(row.durationS), row.toolCalls + ' app actions', row.turn ? 'turn ' + row.turn : '', row.split].filter(Boolean).join(' · ');
}

/** `/` focuses the search; ←/→ and [/] go to the previous/next scenario. Bound once per document. */
function bindKeys(): void {
  if (traceState.keysBound) return;
  traceState.keysBound = true;
  document.addEventListener('keydown', (ev) => {
    const tag = (ev.target as Element | null)?.tagName || '';
    if (tag === 'INPUT' || tag === 'TEXTAREA' || ev.metaKey || ev.ctrlKey || ev.altKey) return;
    if (ev.key === '/') {
      ev.preventDefault();
      document.getElementById('trace-search')?.focus();
    }
    const page = currentPage();
    if (page?.page !== 'trace') return;
    const link = ev.key === 'ArrowLeft' || ev.key === '[' ? page.prevHref : ev.key === 'ArrowRight' || ev.key === ']' ? page.nextHref : '';
    if (link) location.href = safeHref(link);
  });
}

export function renderTrace(app: HTMLElement, d: TraceView): void {
  const nav = el('span', { class: 'nav' }, d.prevHref ? el('a', { href: d.prevHref, id: 'prev', text: '← prev' }) : null, d.nextHref ? el('a', { href: d.nextHref, id: 'next', text: 'next →' }) : null);
  append(app, topBar([{ label: d.runName, href: d.homeHref }, { label: d.id }], nav));
  const main = el('main');
  append(main, el('h1', null, d.id + ' ', badge(d.row.status)));
  append(main, el('div', { class: 'sub', id: 'stats', text: stats(d) }));
  const search = el('input', { type: 'search', id: 'trace-search', placeholder: 'Search this trace (/)', 'aria-label': 'Search this trace' });
  search.value = traceState.q;
  const count = el('span', { class: 'muted', id: 'hits' });
  const toggleText = () => (expand.all ? 'Collapse all' : 'Expand all');
  const toggle = el('button', { class: 'small', text: toggleText(), onclick: () => {
    expand.all = !expand.all;
    draw();
    toggle.textContent = toggleText();
  } });
  append(main, el('div', { class: 'filters' }, search, toggle, count));
  const list = el('div', { id: 'timeline' });
  append(main, el('div', { class: 'layout' }, el('section', null, list), sidebar(d)));
  append(app, main);
  const texts = d.items.map((it) => itemText(it).toLowerCase());
  let observer: IntersectionObserver | null = null;
  function draw(): void {
    clear(list);
    observer?.disconnect();
    const q = traceState.q.toLowerCase().trim();
    const idx: number[] = [];
    for (let i = 0; i < d.items.length; i++) if (!q || texts[i]!.indexOf(q) >= 0) idx.push(i);
    count.textContent = q ? idx.length + ' matching items' : d.items.length + ' items';
    if (!d.items.length) append(list, el('p', { class: 'muted', text: 'No trace, events or verdicts recorded yet.' }));
    for (const i of idx.slice(0, traceState.limit)) {
      const n = renderItem(d.items[i]!);
      if (q) {
        n.className += ' hit';
        highlight(n, q);
      }
      list.appendChild(n);
    }
    if (idx.length > traceState.limit) {
      const more = el('button', { class: 'more', id: 'more', text: 'Show more (' + (idx.length - traceState.limit) + ' left)', onclick: () => {
        traceState.limit += TRACE_PAGE_SIZE;
        draw();
      } });
      list.appendChild(more);
      if (typeof IntersectionObserver !== 'undefined') {
        observer = new IntersectionObserver((es) => {
          if (es[0]?.isIntersecting) more.click();
        });
        observer.observe(more);
      }
    }
  }
  search.addEventListener('input', () => {
    traceState.q = search.value;
    traceState.limit = TRACE_PAGE_SIZE;
    draw();
  });
  draw();
  bindKeys();
}
