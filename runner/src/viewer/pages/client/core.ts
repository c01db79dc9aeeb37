// Browser helpers shared by every page: element building through text nodes, formatting,
// URL-hash state, and live refresh under `serve` (SSE → refetch this page → re-render).
// Plain ES2019 inside a string: it is inlined into the page and allowed by its CSP hash.
export const CLIENT_CORE_JS = String.raw`
'use strict';
var PAGE = null;
function el(tag, props) {
  var node = document.createElement(tag);
  if (props) for (var k in props) {
    var v = props[k];
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') node.className = v;
    else if (k === 'text') node.textContent = String(v);
    else if (k === 'href') node.setAttribute('href', safeHref(v));
    else if (k.indexOf('on') === 0) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, String(v));
  }
  for (var i = 2; i < arguments.length; i++) appendOne(node, arguments[i]);
  return node;
}
function append(node) {
  for (var i = 1; i < arguments.length; i++) appendOne(node, arguments[i]);
  return node;
}
function appendOne(node, c) {
  if (c === undefined || c === null || c === false) return;
  if (Array.isArray(c)) { for (var j = 0; j < c.length; j++) appendOne(node, c[j]); return; }
  node.appendChild(typeof c === 'object' ? c : document.createTextNode(String(c)));
}
function safeHref(h) {
  h = String(h || '');
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(h) || h.indexOf('//') === 0 || h.indexOf('\\') >= 0) return '#';
  return h;
}
function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }
function fmtInt(n) { return (n === null || n === undefined || isNaN(n)) ? '—' : Math.round(n).toLocaleString('en-US'); }
function fmtTok(n) { if (!n) return '0'; if (n >= 1e6) return (n / 1e6).toFixed(2) + 'M'; if (n >= 1e3) return (n / 1e3).toFixed(1) + 'k'; return String(n); }
function fmtCost(c) { return (c === null || c === undefined) ? '—' : '$' + (c < 1 ? c.toFixed(4) : c.toFixed(2)); }
function fmtDur(s) { if (s === null || s === undefined) return '—'; if (s < 60) return s.toFixed(1) + 's'; return Math.floor(s / 60) + 'm' + String(Math.round(s % 60)).padStart(2, '0') + 's'; }
function fmtPct(x) { return (x === null || x === undefined || isNaN(x)) ? '—' : (100 * x).toFixed(1) + '%'; }
function fmtJson(v) { if (typeof v === 'string') return v; try { return JSON.stringify(v, null, 2); } catch (e) { return String(v); } }
var collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
function cmpValues(a, b) {
  var an = a === null || a === undefined || a === '', bn = b === null || b === undefined || b === '';
  if (an || bn) return an === bn ? 0 : (an ? 1 : -1);
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return collator.compare(String(a), String(b));
}
function badge(status, label) { return el('span', { class: 'badge ' + (status || 'none'), text: label || String(status || 'none').toUpperCase() }); }
function readHash() {
  var out = {}; var h = location.hash.replace(/^#/, '');
  h.split('&').forEach(function (kv) { if (!kv) return; var i = kv.indexOf('='); var k = decodeURIComponent(i < 0 ? kv : kv.slice(0, i)); out[k] = i < 0 ? '' : decodeURIComponent(kv.slice(i + 1)); });
  return out;
}
function writeHash(state) {
  var parts = [];
  Object.keys(state).forEach(function (k) { if (state[k] !== '' && state[k] !== undefined && state[k] !== null) parts.push(encodeURIComponent(k) + '=' + encodeURIComponent(state[k])); });
  var h = parts.length ? '#' + parts.join('&') : '';
  try { history.replaceState(null, '', h || location.pathname + location.search); } catch (e) { if (h) location.hash = h; }
}
function readPageData(doc) { var node = doc.getElementById('page-data'); return JSON.parse(node ? node.textContent : 'null'); }
function topBar(crumbs, extra) {
  var c = el('span', { class: 'crumbs' });
  crumbs.forEach(function (cr, i) { if (i) append(c, ' / '); append(c, cr.href ? el('a', { href: cr.href, text: cr.label }) : el('b', { text: cr.label })); });
  return el('header', { class: 'top' }, c, el('span', { class: 'spacer' }), extra || null, el('span', { class: 'live', id: 'live' }));
}
function card(label, value, cls) { return el('div', { class: 'card ' + (cls || '') }, el('div', { class: 'v', text: value }), el('div', { class: 'l', text: label })); }
// The model gateway's counts (as the progress line shows them), while the run runs and after.
function gatewayCard(g) {
  if (!g) return null;
  var node = card('Model gateway' + (g.running ? '' : ' (run ended)'), 'queued ' + fmtInt(g.queued) + ' · throttled ' + fmtInt(g.throttled) + ' · retried ' + fmtInt(g.retried));
  node.id = 'gateway-counts';
  node.title = fmtInt(g.requests) + ' requests, ' + fmtInt(g.gave_up) + ' given up';
  return node;
}
function statusBar(c) {
  var total = Math.max(1, c.expected || (c.pass + c.fail + c.error + c.running));
  var bar = el('div', { class: 'bar' });
  [['p', c.pass], ['f', c.fail], ['e', c.error], ['r', c.running]].forEach(function (s) { var i = el('i', { class: s[0] }); i.style.width = (100 * s[1] / total) + '%'; bar.appendChild(i); });
  return bar;
}
function countRows(rows) {
  var c = { pass: 0, fail: 0, error: 0, running: 0, tokensIn: 0, tokensOut: 0, appIn: 0, appOut: 0, judgeIn: 0, judgeOut: 0, cost: 0, costKnown: 0 };
  rows.forEach(function (r) { c[r.status]++; c.tokensIn += r.tokensIn || 0; c.tokensOut += r.tokensOut || 0; c.appIn += r.appAgentTokensIn || 0; c.appOut += r.appAgentTokensOut || 0; c.judgeIn += r.judgeTokensIn || 0; c.judgeOut += r.judgeTokensOut || 0; if (r.costUsd !== null && r.costUsd !== undefined) { c.cost += r.costUsd; c.costKnown++; } });
  c.completed = c.pass + c.fail + c.error; c.judged = c.pass + c.fail;
  return c;
}
var RENDERERS = {};
function render() {
  var app = document.getElementById('app');
  var scrollY = window.scrollY;
  clear(app);
  var r = RENDERERS[PAGE.page];
  if (r) r(app, PAGE); else append(app, el('p', { text: 'Unknown page type.' }));
  window.scrollTo(0, scrollY);
  document.body.setAttribute('data-version', String((Number(document.body.getAttribute('data-version')) || 0) + 1));
}
function refresh() {
  return fetch(location.pathname, { cache: 'no-store' }).then(function (r) { return r.text(); }).then(function (html) {
    var doc = new DOMParser().parseFromString(html, 'text/html');
    PAGE = readPageData(doc); render(); markLive(true);
  }).catch(function () { markLive(false); });
}
function markLive(on) { var n = document.getElementById('live'); if (n) { n.className = 'live' + (on ? ' on' : ''); n.textContent = on ? 'live' : 'offline'; } }
function startLive() {
  if (!/^https?:$/.test(location.protocol) || typeof EventSource === 'undefined') return;
  var es = new EventSource('/__live');
  es.addEventListener('open', function () { markLive(true); });
  es.addEventListener('error', function () { markLive(false); });
  es.addEventListener('rebuilt', function (ev) {
    var msg; try { msg = JSON.parse(ev.data); } catch (e) { return; }
    var here = decodeURIComponent(location.pathname.replace(/\/$/, '/index.html'));
    if ((msg.pages || []).indexOf(here) >= 0) refresh();
  });
}
function main() {
  PAGE = readPageData(document);
  render();
  startLive();
}
`;
