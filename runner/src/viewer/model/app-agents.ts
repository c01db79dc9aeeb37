// Agent2Agent on the trace page: app_agents_trace.jsonl (trace.jsonl lines tagged with
// `app_agent: {call, app, cli}`) → one conversation per expert_agent call, nested under the
// main agent's tool call that made it (one per `expert-agent` in a shell command, or a
// `<cli>__expert_agent` function call), or, when the main agent left no LLM trace (scripted),
// under the expert_agent line of events.jsonl. Calls are matched in order.
import { EXPERT_COMMAND, EXPERT_FN } from '@gaia2/contract/lib/apps/expert-command';
import type { EventLine } from '@gaia2/contract';
import { traceFromRows } from '../../trace/index.js';
import { isObj } from '../../trace/json-util.js';
import { addCost, addTokens, ZERO_TOKENS } from '../../tokens/index.js';
import { callTotals, cap, conversationGroups, type Spend } from './conversation.js';
import type { AppAgentView, TimelineItem } from './types.js';

/** The app agents' conversations, by expert_agent call number. */
export function appAgentViews(traceText: string, events: readonly EventLine[]): AppAgentView[] {
  const byCall = new Map<number, { app: string; cli: string; rows: Record<string, unknown>[] }>();
  for (const line of traceText.split('\n')) {
    if (!line.trim()) continue;
    let row: unknown;
    try {
      row = JSON.parse(line);
    } catch {
      continue; // a torn last line: the rest still shows
    }
    const tag = isObj(row) && isObj(row.app_agent) ? row.app_agent : null;
    if (!tag || typeof tag.call !== 'number') continue;
    const g = byCall.get(tag.call) ?? { app: String(tag.app ?? ''), cli: String(tag.cli ?? ''), rows: [] };
    g.rows.push(row as Record<string, unknown>);
    byCall.set(tag.call, g);
  }
  const expertLines = events.filter((e) => e.fn === EXPERT_FN);
  return [...byCall.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([call, g], i) => {
      const calls = traceFromRows(g.rows);
      const totals = callTotals(calls);
      const done = expertLines[i];
      return {
        call,
        app: g.app,
        cli: g.cli,
        task: done ? cap(String((done.args as { task?: unknown } | null)?.task ?? ''), 20_000) : '',
        answer: done && typeof done.ret === 'string' ? cap(done.ret, 20_000) : '',
        llmCalls: totals.tokens.llm_calls ?? 0,
        tokensIn: totals.tokens.input_tokens,
        tokensOut: totals.tokens.output_tokens,
        costUsd: totals.costUsd,
        items: conversationGroups(calls).flatMap((grp) => grp.items),
      };
    });
}

/** How many expert_agent calls one main-agent tool call made. */
function expertCalls(it: Extract<TimelineItem, { k: 'tool' }>): number {
  if (it.name.endsWith(`__${EXPERT_FN}`)) return 1;
  const cmd = isObj(it.input) && typeof it.input.command === 'string' ? it.input.command : '';
  return cmd.split(new RegExp(`\\b${EXPERT_COMMAND}\\b`)).length - 1;
}

/** Attaches each conversation to the item that made the call (in place). */
export function nestAppAgents(items: TimelineItem[], views: readonly AppAgentView[]): void {
  let next = 0;
  for (const it of items) {
    if (next >= views.length) return;
    if (it.k !== 'tool') continue;
    const n = expertCalls(it);
    if (n > 0) {
      it.appAgents = views.slice(next, next + n);
      next += n;
    }
  }
  if (next > 0) return; // the main agent's own calls claimed them
  for (const it of items) {
    if (next >= views.length) return;
    if (it.k === 'event' && it.fn === EXPERT_FN) it.appAgents = [views[next++]!];
  }
}

/** The app agents' calls, tokens and cost (null when one of them has no price). */
export function appAgentTotals(views: readonly AppAgentView[]): Spend {
  return views.reduce<Spend>(
    (sum, v) => ({
      tokens: addTokens(sum.tokens, { input_tokens: v.tokensIn, output_tokens: v.tokensOut, llm_calls: v.llmCalls }),
      costUsd: addCost(sum.costUsd, v.costUsd),
    }),
    { tokens: { ...ZERO_TOKENS, llm_calls: 0 }, costUsd: 0 },
  );
}
