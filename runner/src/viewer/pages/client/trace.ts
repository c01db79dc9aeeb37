// Trace page: header stats, the time-ordered timeline (lazily rendered in pages), in-trace
// search with highlighting, per-turn verdicts with agent-vs-oracle argument comparison.
export const CLIENT_TRACE_JS = String.raw`
var TRACE_PAGE_SIZE = 150;
var traceState = { q: '', limit: TRACE_PAGE_SIZE, open: false, keysBound: false };
function briefArgs(v, n) { var s = typeof v === 'string' ? v : JSON.stringify(v); s = s === undefined ? '' : s; return s.length > n ? s.slice(0, n) + '…' : s; }
function itemText(it) {
  switch (it.k) {
    case 'task': return it.text;
    case 'call': return 'llm call ' + it.seq + ' ' + it.model + ' ' + it.error + ' ' + it.unparsed;
    case 'msg': return it.role + ' ' + it.blocks.map(function (b) { return b.text || b.rawType || ''; }).join('\n');
    case 'tool': return it.name + ' ' + JSON.stringify(it.input) + ' ' + (it.result || '') + appAgentsText(it.appAgents);
    case 'context': return it.note;
    case 'failure': return 'noise tool failure ' + it.tool + ' ' + it.argv.join(' ') + ' ' + it.message;
    case 'event': return it.kind + ' ' + it.app + '.' + it.fn + ' ' + JSON.stringify(it.args) + ' ' + JSON.stringify(it.ret) + appAgentsText(it.appAgents);
    case 'verdict': return 'turn ' + it.turn + ' ' + (it.success ? 'pass' : 'fail') + ' ' + it.reason + ' ' + it.comparisons.map(function (c) { return c.oracleTool + ' ' + c.reason; }).join(' ');
  }
  return '';
}
function appAgentsText(list) {
  return (list || []).map(function (a) { return ' app agent ' + a.app + ' ' + a.items.map(itemText).join(' '); }).join('');
}
// Agent2Agent: the app agent's own conversation for this call, drawn with the same items, nested.
function appAgentBlocks(list) {
  return (list || []).map(function (a) {
    var body = el('div', { class: 'nested' }, a.items.map(renderItem));
    var d = el('details', { class: 'app-agent', 'data-app-agent-call': a.call, open: true },
      el('summary', { text: 'App agent · ' + a.app + ' · expert_agent call ' + a.call + ' · ' + a.llmCalls + ' LLM call(s), ' + fmtTok(a.tokensIn) + ' in / ' + fmtTok(a.tokensOut) + ' out' }),
      body, a.answer ? el('div', { class: 'meta' }, el('b', { text: 'Answer' }), el('pre', { class: 'out', text: a.answer })) : null);
    return d;
  });
}
function details(summary, body, cls) { var d = el('details', { class: cls || '' }, el('summary', { text: summary }), body); if (traceState.open) d.open = true; return d; }
function toolInput(it) {
  if (it.input && typeof it.input === 'object' && typeof it.input.command === 'string' && /^(exec|bash|shell|run_command)$/.test(it.name)) return el('pre', { class: 'out', text: '$ ' + it.input.command });
  return el('pre', { class: 'out', text: it.name + (it.input === null ? '' : ' ' + fmtJson(it.input)) });
}
function argsTable(agent, oracle) {
  var keys = Object.keys(oracle || {}); Object.keys(agent || {}).forEach(function (k) { if (keys.indexOf(k) < 0) keys.push(k); });
  var t = el('table', { class: 'cmp' }, el('tr', null, el('th', { text: 'Argument' }), el('th', { text: 'Agent' }), el('th', { text: 'Oracle' })));
  keys.forEach(function (k) {
    var a = agent && k in agent ? fmtJson(agent[k]) : '(missing)', o = oracle && k in oracle ? fmtJson(oracle[k]) : '(missing)';
    var cls = a === o ? 'same' : 'diff';
    t.appendChild(el('tr', null, el('td', { text: k }), el('td', { class: cls }, el('pre', { text: a })), el('td', { class: cls }, el('pre', { text: o }))));
  });
  return t;
}
function renderItem(it) {
  switch (it.k) {
    case 'task': return el('div', { class: 'item task' }, el('div', { class: 'meta' }, el('b', { text: 'Task' }), it.simT ? el('span', { text: 'sim ' + it.simT }) : null), el('pre', { text: it.text }));
    case 'call': {
      var u = it.usage;
      return el('div', { class: 'item call', id: 'call-' + it.seq }, el('div', { class: 'meta' },
        el('a', { href: '#call-' + it.seq, text: 'LLM call #' + it.seq }), it.t ? el('span', { text: it.t.replace('T', ' ').replace(/\.\d+Z?$|Z$/, '') }) : null,
        el('span', { text: it.model }), el('span', { text: (it.latencyMs / 1000).toFixed(2) + 's' }),
        el('span', { text: fmtInt(u.input + u.cacheRead + u.cacheWrite) + ' in' + (u.cacheRead ? ' (' + fmtInt(u.cacheRead) + ' cached)' : '') + ' / ' + fmtInt(u.output) + ' out' + (u.reasoning ? ' (' + fmtInt(u.reasoning) + ' reasoning)' : '') }),
        el('span', { text: fmtCost(it.costUsd) }), it.stop ? el('span', { text: 'stop: ' + it.stop }) : null,
        it.status && it.status !== 200 ? el('span', { class: 'red', text: 'HTTP ' + it.status }) : null, it.retried ? el('span', { class: 'red', text: 'retried' }) : null),
        it.error ? el('pre', { class: 'out err', text: it.error }) : null,
        it.unparsed ? details('Response could not be parsed: raw body', el('pre', { class: 'out', text: it.unparsed })) : null);
    }
    case 'msg': {
      var body = it.blocks.map(function (b) {
        if (b.type === 'thinking') return details('Thinking (' + b.text.length + ' chars)', el('pre', { text: b.text }), 'thinking');
        if (b.type === 'raw') return el('em', { class: 'muted', text: '[' + b.rawType + ']' });
        return el('pre', { text: b.text });
      });
      if (it.role === 'system') { var len = it.blocks.reduce(function (n, b) { return n + (b.text ? b.text.length : 0); }, 0); body = [details('System prompt (' + len + ' chars)', body)]; }
      return el('div', { class: 'item role-' + it.role }, el('div', { class: 'meta' }, el('b', { text: it.role })), body);
    }
    case 'tool':
      return el('div', { class: 'item tool', 'data-tool-id': it.id }, el('div', { class: 'meta' }, el('b', { text: 'Tool call' }), el('span', { text: it.name }), it.id ? el('span', { class: 'muted', text: it.id }) : null),
        el('div', { class: 'pair' }, toolInput(it), it.result === null ? el('em', { class: 'muted', text: 'no result recorded' }) : el('pre', { class: 'out' + (it.isError ? ' err' : ''), text: it.result })), appAgentBlocks(it.appAgents));
    case 'context': return el('div', { class: 'item context', text: it.note });
    case 'event': {
      var when = it.simT ? 'sim ' + it.simT : '';
      if (it.kind === 'action') return el('div', { class: 'item ev-action' }, el('span', { class: 'muted', text: when + '  ' }), el('b', { text: it.app + '.' + it.fn }), el('span', { class: 'mono', text: ' ' + briefArgs(it.args, 160) + ' → ' + briefArgs(it.ret, 120) }), it.write ? el('span', { class: 'muted', text: '  [write]' }) : null, appAgentBlocks(it.appAgents));
      var label = it.noise ? 'Background noise (ENV) · ' + it.app + '.' + it.fn : it.kind === 'env' ? 'Notification (ENV) · ' + it.app + '.' + it.fn : it.kind === 'user' ? 'User message' : 'Agent → user';
      var text = it.args && typeof it.args === 'object' && typeof it.args.content === 'string' ? it.args.content : fmtJson(it.args);
      return el('div', { class: 'item ev-' + it.kind + (it.noise ? ' ev-noise' : '') }, el('div', { class: 'meta' }, el('b', { text: label }), when ? el('span', { text: when }) : null, it.eventId ? el('span', { class: 'muted', text: it.eventId }) : null),
        el('pre', { text: text }), it.kind === 'env' && it.ret !== null && it.ret !== undefined ? details('Result', el('pre', { text: fmtJson(it.ret) })) : null);
    }
    case 'failure':
      return el('div', { class: 'item noise-failure' }, el('div', { class: 'meta' }, el('b', { text: 'Injected tool failure (noise) · ' + it.tool }), it.simT ? el('span', { text: 'sim ' + it.simT }) : null),
        el('pre', { class: 'out', text: '$ ' + it.argv.join(' ') }), el('pre', { class: 'out err', text: it.message }));
    case 'verdict': {
      var rows = it.comparisons.map(function (c) {
        return details((c.matched ? '✔ ' : '✘ ') + c.oracleTool + (c.matched ? '  →  ' + (c.agentTool || 'matched') : '') + (c.reason ? '  — ' + c.reason : ''),
          [argsTable(c.agentArgs, c.oracleArgs), c.judgeOutput ? el('pre', { class: 'muted', text: c.judgeOutput }) : null], 'cmp-row');
      });
      return el('div', { class: 'item verdict ' + (it.success ? 'ok' : 'bad') }, el('div', { class: 'meta' }, el('b', { text: 'Judge: turn ' + it.turn }), badge(it.success ? 'pass' : 'fail', it.success ? 'ACCEPT' : 'REJECT')),
        it.reason ? el('pre', { class: 'red', text: it.reason }) : null, rows);
    }
  }
  return el('pre', { class: 'muted', text: JSON.stringify(it) });
}
function highlight(node, q) {
  if (!q) return;
  var walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT), texts = [], t;
  while ((t = walker.nextNode())) texts.push(t);
  texts.forEach(function (tn) {
    var s = tn.nodeValue, low = s.toLowerCase(), i = low.indexOf(q); if (i < 0) return;
    var frag = document.createDocumentFragment(), pos = 0;
    while (i >= 0) { frag.appendChild(document.createTextNode(s.slice(pos, i))); frag.appendChild(el('mark', { text: s.slice(i, i + q.length) })); pos = i + q.length; i = low.indexOf(q, pos); }
    frag.appendChild(document.createTextNode(s.slice(pos)));
    tn.parentNode.replaceChild(frag, tn);
  });
}
function sidebar(d) {
  var r = d.result, side = el('aside', { class: 'side' });
  var verdict = el('div', { class: 'panel', id: 'verdict' }, el('h2', null, 'Result ', badge(d.row.status)));
  if (d.row.status === 'running') append(verdict, el('p', { class: 'muted', text: 'Still running: the verdict appears when result.json is written.' }));
  if (r.error) append(verdict, el('pre', { class: 'red', text: 'Error' + (r.errorKind ? ' (' + r.errorKind + ')' : '') + ': ' + r.error }));
  r.failureReasons.forEach(function (f) { append(verdict, el('pre', { class: 'red', text: f })); });
  if (r.judgeMode) append(verdict, el('div', { class: 'muted', text: 'judge: ' + r.judgeMode + (r.judgeMode === 'hard-only' ? ' (no judge LLM: soft checks passed by design)' : '') }));
  if (r.timedOut) append(verdict, el('div', { class: 'red', text: 'timed out' }));
  if (d.daemon) append(verdict, el('div', { class: 'muted', text: 'daemon: ' + d.daemon.status + ', turn ' + d.daemon.turn + '/' + d.daemon.nbTurns + (d.daemon.simTime ? ', sim ' + d.daemon.simTime : '') + (d.daemon.reason ? ' — ' + d.daemon.reason : '') }));
  append(side, verdict);
  if (d.noise) {
    var n = d.noise, parts = [];
    parts.push(n.toolFailureProbability === null ? 'tool augmentation off' : 'tool failures p=' + n.toolFailureProbability + ' (seed ' + n.toolSeed + '): ' + n.failures + ' injected');
    parts.push(n.eventsPerMinute === null ? 'background events off' : 'background events ' + n.eventsPerMinute + '/min (seed ' + n.eventsSeed + '): ' + n.fired + ' of ' + n.planned + ' planned fired');
    append(side, el('div', { class: 'panel', id: 'noise' }, el('h2', { text: 'Noise phase' }), parts.map(function (p) { return el('div', { text: p }); })));
  }
  if (r.agentResponse) append(side, el('div', { class: 'panel' }, el('h2', { text: 'Final answer' }), el('pre', { text: r.agentResponse })));
  if (d.oracle.length) append(side, el('div', { class: 'panel' }, el('h2', { text: 'Oracle events (' + d.oracle.length + ')' }),
    d.oracle.map(function (o) { return details(o.type + ' · ' + o.tool, el('pre', { text: fmtJson(o.args) })); })));
  if (d.badLines.length) append(side, el('div', { class: 'panel' }, el('h2', { text: 'Unreadable trace lines (' + d.badLines.length + ')' }),
    d.badLines.map(function (b) { return details('line ' + b.line, el('pre', { text: b.text })); })));
  if (d.daemonLogTail) append(side, el('div', { class: 'panel' }, details('Daemon log (eventd.log, end)', el('pre', { class: 'out', text: d.daemonLogTail }))));
  append(side, el('div', { class: 'panel' }, el('h2', { text: 'Raw artifacts' }), d.rawFiles.map(function (f) { return el('div', null, el('a', { href: encodeURIComponent(f.name), text: f.name }), el('span', { class: 'muted', text: '  ' + fmtInt(f.size) + ' bytes' })); })));
  return side;
}
RENDERERS.trace = function (app, d) {
  var row = d.row;
  var nav = el('span', { class: 'nav' }, d.prevHref ? el('a', { href: d.prevHref, id: 'prev', text: '← prev' }) : null, d.nextHref ? el('a', { href: d.nextHref, id: 'next', text: 'next →' }) : null);
  append(app, topBar([{ label: d.runName, href: d.homeHref }, { label: d.id }], nav));
  var main = el('main');
  append(main, el('h1', null, d.id + ' ', badge(row.status)));
  append(main, el('div', { class: 'sub', id: 'stats', text: [row.model || 'no LLM trace', row.llmCalls + ' LLM calls', fmtInt(row.tokensIn) + ' in / ' + fmtInt(row.tokensOut) + ' out',
    row.appAgentLlmCalls ? 'of which app agents ' + row.appAgentLlmCalls + ' calls, ' + fmtInt(row.appAgentTokensIn) + ' in / ' + fmtInt(row.appAgentTokensOut) + ' out' : '',
    row.judgeTokensIn || row.judgeTokensOut ? 'judge ' + fmtInt(row.judgeTokensIn) + ' in / ' + fmtInt(row.judgeTokensOut) + ' out' : '', 'cost ' + fmtCost(row.costUsd),
    (row.latencyMs / 1000).toFixed(1) + 's LLM time', 'duration ' + fmtDur(row.durationS), row.toolCalls + ' app actions', row.turn ? 'turn ' + row.turn : '', row.split].filter(Boolean).join(' · ') }));
  var search = el('input', { type: 'search', id: 'trace-search', placeholder: 'Search this trace (/)', 'aria-label': 'Search this trace' });
  search.value = traceState.q;
  var count = el('span', { class: 'muted', id: 'hits' });
  var toggle = el('button', { class: 'small', text: traceState.open ? 'Collapse all' : 'Expand all', onclick: function () { traceState.open = !traceState.open; draw(); toggle.textContent = traceState.open ? 'Collapse all' : 'Expand all'; } });
  append(main, el('div', { class: 'filters' }, search, toggle, count));
  var list = el('div', { id: 'timeline' });
  append(main, el('div', { class: 'layout' }, el('section', null, list), sidebar(d)));
  append(app, main);
  var texts = d.items.map(function (it) { return itemText(it).toLowerCase(); });
  var observer = null;
  function draw() {
    clear(list); if (observer) observer.disconnect();
    var q = traceState.q.toLowerCase().trim();
    var idx = []; for (var i = 0; i < d.items.length; i++) if (!q || texts[i].indexOf(q) >= 0) idx.push(i);
    count.textContent = q ? idx.length + ' matching items' : d.items.length + ' items';
    if (!d.items.length) append(list, el('p', { class: 'muted', text: 'No trace, events or verdicts recorded yet.' }));
    idx.slice(0, traceState.limit).forEach(function (i) { var n = renderItem(d.items[i]); if (q) { n.className += ' hit'; highlight(n, q); } list.appendChild(n); });
    if (idx.length > traceState.limit) {
      var more = el('button', { class: 'more', id: 'more', text: 'Show more (' + (idx.length - traceState.limit) + ' left)', onclick: function () { traceState.limit += TRACE_PAGE_SIZE; draw(); } });
      list.appendChild(more);
      if (typeof IntersectionObserver !== 'undefined') { observer = new IntersectionObserver(function (es) { if (es[0].isIntersecting) more.click(); }); observer.observe(more); }
    }
  }
  search.addEventListener('input', function () { traceState.q = search.value; traceState.limit = TRACE_PAGE_SIZE; draw(); });
  draw();
  if (!traceState.keysBound) {
    traceState.keysBound = true;
    document.addEventListener('keydown', function (ev) {
      var tag = (ev.target && ev.target.tagName) || '';
      if (tag === 'INPUT' || tag === 'TEXTAREA' || ev.metaKey || ev.ctrlKey || ev.altKey) return;
      if (ev.key === '/') { ev.preventDefault(); document.getElementById('trace-search').focus(); }
      var link = (ev.key === 'ArrowLeft' || ev.key === '[') ? PAGE.prevHref : (ev.key === 'ArrowRight' || ev.key === ']') ? PAGE.nextHref : '';
      if (link) location.href = safeHref(link);
    });
  }
};
`;
