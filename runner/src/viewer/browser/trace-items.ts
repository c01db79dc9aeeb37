// One timeline item of a trace page (model call, message, tool call, event, verdict, …) as
// an element, and as the text the in-trace search looks through.
import type { AppAgentView, TimelineItem, ViewBlock } from '../model/types.js';
import { el, type Child } from './dom.js';
import { fmtCost, fmtInt, fmtJson, fmtTok } from './format.js';
import { badge } from './widgets.js';

/** Collapsed sections start open after "Expand all". */
export const expand = { all: false };

const blockText = (b: ViewBlock): string => (b.type === 'raw' ? b.rawType : b.text);

function briefArgs(v: unknown, n: number): string {
  const s = (typeof v === 'string' ? v : JSON.stringify(v)) ?? '';
  return s.length > n ? s.slice(0, n) + '…' : s;
}

export function itemText(it: TimelineItem): string {
  switch (it.k) {
    case 'task': return it.text;
    case 'call': return 'llm call ' + it.seq + ' ' + it.model + ' ' + it.error + ' ' + it.unparsed;
    case 'msg': return it.role + ' ' + it.blocks.map((b) => blockText(b) || '').join('\n');
    case 'tool': return it.name + ' ' + JSON.stringify(it.input) + ' ' + (it.result || '') + appAgentsText(it.appAgents);
    case 'context': return it.note;
    case 'failure': return 'noise tool failure ' + it.tool + ' ' + it.argv.join(' ') + ' ' + it.message;
    case 'event': return it.kind + ' ' + it.app + '.' + it.fn + ' ' + JSON.stringify(it.args) + ' ' + JSON.stringify(it.ret) + appAgentsText(it.appAgents);
    case 'verdict': return 'turn ' + it.turn + ' ' + (it.success ? 'pass' : 'fail') + ' ' + it.reason + ' ' + it.comparisons.map((c) => c.oracleTool + ' ' + c.reason).join(' ');
  }
  return '';
}

function appAgentsText(list: readonly AppAgentView[] | undefined): string {
  return (list || []).map((a) => ' app agent ' + a.app + ' ' + a.items.map(itemText).join(' ')).join('');
}

// Agent2Agent: the app agent's own conversation for this call, drawn with the same items, nested.
function appAgentBlocks(list: readonly AppAgentView[] | undefined): HTMLElement[] {
  return (list || []).map((a) =>
    el('details', { class: 'app-agent', 'data-app-agent-call': a.call, open: true },
      el('summary', { text: 'App agent · ' + a.app + ' · expert_agent call ' + a.call + ' · ' + a.llmCalls + ' LLM call(s), ' + fmtTok(a.tokensIn) + ' in / ' + fmtTok(a.tokensOut) + ' out' }),
      el('div', { class: 'nested' }, a.items.map(renderItem)),
      a.answer ? el('div', { class: 'meta' }, el('b', { text: 'Answer' }), el('pre', { class: 'out', text: a.answer })) : null),
  );
}

export function details(summary: string, body: Child, cls?: string): HTMLDetailsElement {
  const d = el('details', { class: cls || '' }, el('summary', { text: summary }), body);
  if (expand.all) d.open = true;
  return d;
}

function toolInput(it: Extract<TimelineItem, { k: 'tool' }>): HTMLPreElement {
  const input = it.input as { command?: unknown } | null;
  if (input && typeof input === 'object' && typeof input.command === 'string' && /^(exec|bash|shell|run_command)$/.test(it.name)) return el('pre', { class: 'out', text: '$ ' + input.command });
  return el('pre', { class: 'out', text: it.name + (it.input === null ? '' : ' ' + fmtJson(it.input)) });
}

function argsTable(agent: Record<string, unknown> | null, oracle: Record<string, unknown> | null): HTMLTableElement {
  const keys = Object.keys(oracle || {});
  for (const k of Object.keys(agent || {})) if (keys.indexOf(k) < 0) keys.push(k);
  const t = el('table', { class: 'cmp' }, el('tr', null, el('th', { text: 'Argument' }), el('th', { text: 'Agent' }), el('th', { text: 'Oracle' })));
  for (const k of keys) {
    const a = agent && k in agent ? fmtJson(agent[k]) : '(missing)';
    const o = oracle && k in oracle ? fmtJson(oracle[k]) : '(missing)';
    const cls = a === o ? 'same' : 'diff';
    t.appendChild(el('tr', null, el('td', { text: k }), el('td', { class: cls }, el('pre', { text: a })), el('td', { class: cls }, el('pre', { text: o }))));
  }
  return t;
}

function renderCall(it: Extract<TimelineItem, { k: 'call' }>): HTMLElement {
  const u = it.usage;
  return el('div', { class: 'item call', id: 'call-' + it.seq }, el('div', { class: 'meta' },
    el('a', { href: '#call-' + it.seq, text: 'LLM call #' + it.seq }), it.t ? el('span', { text: it.t.replace('T', ' ').replace(/\.\d+Z?$|Z$/, '') }) : null,
    el('span', { text: it.model }), el('span', { text: (it.latencyMs / 1000).toFixed(2) + 's' }),
    el('span', { text: fmtInt(u.input + u.cacheRead + u.cacheWrite) + ' in' + (u.cacheRead ? ' (' + fmtInt(u.cacheRead) + ' cached)' : '') + ' / ' + fmtInt(u.output) + ' out' + (u.reasoning ? ' (' + fmtInt(u.reasoning) + ' reasoning)' : '') }),
    el('span', { text: fmtCost(it.costUsd) }), it.stop ? el('span', { text: 'stop: ' + it.stop }) : null,
    it.status && it.status !== 200 ? el('span', { class: 'red', text: 'HTTP ' + it.status }) : null, it.retried ? el('span', { class: 'red', text: 'retried' }) : null),
    it.error ? el('pre', { class: 'out err', text: it.error }) : null,
    it.unparsed ? details('Response could not be parsed: raw body', el('pre', { class: 'out', text: it.unparsed })) : null);
}

function renderMessage(it: Extract<TimelineItem, { k: 'msg' }>): HTMLElement {
  let body: HTMLElement[] = it.blocks.map((b) => {
    if (b.type === 'thinking') return details('Thinking (' + b.text.length + ' chars)', el('pre', { text: b.text }), 'thinking');
    if (b.type === 'raw') return el('em', { class: 'muted', text: '[' + b.rawType + ']' });
    return el('pre', { text: b.text });
  });
  if (it.role === 'system') {
    const len = it.blocks.reduce((n, b) => n + (b.type === 'raw' ? 0 : b.text.length), 0);
    body = [details('System prompt (' + len + ' chars)', body)];
  }
  return el('div', { class: 'item role-' + it.role }, el('div', { class: 'meta' }, el('b', { text: it.role })), body);
}

function renderEvent(it: Extract<TimelineItem, { k: 'event' }>): HTMLElement {
  const when = it.simT ? 'sim ' + it.simT : '';
  if (it.kind === 'action') return el('div', { class: 'item ev-action' }, el('span', { class: 'muted', text: when + '  ' }), el('b', { text: it.app + '.' + it.fn }), el('span', { class: 'mono', text: ' ' + briefArgs(it.args, 160) + ' → ' + briefArgs(it.ret, 120) }), it.write ? el('span', { class: 'muted', text: '  [write]' }) : null, appAgentBlocks(it.appAgents));
  const label = it.noise ? 'Background noise (ENV) · ' + it.app + '.' + it.fn : it.kind === 'env' ? 'Notification (ENV) · ' + it.app + '.' + it.fn : it.kind === 'user' ? 'User message' : 'Agent → user';
  const args = it.args as { content?: unknown } | null;
  const text = args && typeof args === 'object' && typeof args.content === 'string' ? args.content : fmtJson(it.args);
  return el('div', { class: 'item ev-' + it.kind + (it.noise ? ' ev-noise' : '') }, el('div', { class: 'meta' }, el('b', { text: label }), when ? el('span', { text: when }) : null, it.eventId ? el('span', { class: 'muted', text: it.eventId }) : null),
    el('pre', { text }), it.kind === 'env' && it.ret !== null && it.ret !== undefined ? details('Result', el('pre', { text: fmtJson(it.ret) })) : null);
}

export function renderItem(it: TimelineItem): HTMLElement {
  switch (it.k) {
    case 'task': return el('div', { class: 'item task' }, el('div', { class: 'meta' }, el('b', { text: 'Task' }), it.simT ? el('span', { text: 'sim ' + it.simT }) : null), el('pre', { text: it.text }));
    case 'call': return renderCall(it);
    case 'msg': return renderMessage(it);
    case 'tool':
      return el('div', { class: 'item tool', 'data-tool-id': it.id }, el('div', { class: 'meta' }, el('b', { text: 'Tool call' }), el('span', { text: it.name }), it.id ? el('span', { class: 'muted', text: it.id }) : null),
        el('div', { class: 'pair' }, toolInput(it), it.result === null ? el('em', { class: 'muted', text: 'no result recorded' }) : el('pre', { class: 'out' + (it.isError ? ' err' : ''), text: it.result })), appAgentBlocks(it.appAgents));
    case 'context': return el('div', { class: 'item context', text: it.note });
    case 'event': return renderEvent(it);
    case 'failure':
      return el('div', { class: 'item noise-failure' }, el('div', { class: 'meta' }, el('b', { text: 'Injected tool failure (noise) · ' + it.tool }), it.simT ? el('span', { text: 'sim ' + it.simT }) : null),
        el('pre', { class: 'out', text: '$ ' + it.argv.join(' ') }), el('pre', { class: 'out err', text: it.message }));
    case 'verdict': {
      const rows = it.comparisons.map((c) =>
        details((c.matched ? '✔ ' : '✘ ') + c.oracleTool + (c.matched ? '  →  ' + (c.agentTool || 'matched') : '') + (c.reason ? '  — ' + c.reason : ''),
          [argsTable(c.agentArgs, c.oracleArgs), c.judgeOutput ? el('pre', { class: 'muted', text: c.judgeOutput }) : null], 'cmp-row'));
      return el('div', { class: 'item verdict ' + (it.success ? 'ok' : 'bad') }, el('div', { class: 'meta' }, el('b', { text: 'Judge: turn ' + it.turn }), badge(it.success ? 'pass' : 'fail', it.success ? 'ACCEPT' : 'REJECT')),
        it.reason ? el('pre', { class: 'red', text: it.reason }) : null, rows);
    }
  }
  return el('pre', { class: 'muted', text: JSON.stringify(it) });
}
