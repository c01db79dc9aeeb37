// Canonical LLM calls → conversation items. Each request repeats (most of) the history, so
// only the messages that are new since the previous call are drawn. "New" is decided by
// comparing message contents, not counts, so compaction, retries and Responses-API chains
// (previous_response_id) do not hide or duplicate messages. Tool calls pair with their
// results by id (by name and order when a provider sends no ids).
import type { Block, CanonicalCall } from '../../trace/index.js';
import { callTokens, commonPrefix, messageKey } from '../../trace/index.js';
import { addCost, addTokens, ZERO_TOKENS, type TokenUsage } from '../../tokens/index.js';
import type { TimelineItem, ViewBlock } from './types.js';

export const MAX_TEXT = 100_000;

export const cap = (s: string, n = MAX_TEXT): string =>
  s.length <= n ? s : `${s.slice(0, n)}\n[… ${s.length - n} more characters in the raw file]`;

type ToolItem = Extract<TimelineItem, { k: 'tool' }>;

export interface CallGroup {
  /** Epoch ms of the call (NaN when the row has no timestamp). */
  time: number;
  items: TimelineItem[];
}

export function conversationGroups(calls: CanonicalCall[]): CallGroup[] {
  const groups: CallGroup[] = [];
  const openTools: ToolItem[] = [];
  const toolsById = new Map<string, ToolItem>();
  let prevKeys: string[] = [];
  let prevRequestLen = 0;

  const placeBlocks = (role: string, blocks: Block[], seq: number, out: TimelineItem[]): void => {
    let pending: ViewBlock[] = [];
    const flush = (): void => {
      if (pending.length) out.push({ k: 'msg', role, blocks: pending, seq });
      pending = [];
    };
    for (const b of blocks) {
      if (b.type === 'tool_use') {
        flush();
        const item: ToolItem = { k: 'tool', id: b.id, name: b.name, input: b.input, result: null, isError: false, seq };
        out.push(item);
        openTools.push(item);
        if (b.id) toolsById.set(b.id, item);
      } else if (b.type === 'tool_result') {
        const target = (b.id && toolsById.get(b.id)) || openTools.find((t) => t.result === null && (!b.name || t.name === b.name));
        if (target && target.result === null) {
          target.result = cap(b.content);
          target.isError = b.isError === true;
          openTools.splice(openTools.indexOf(target), 1);
        } else {
          flush();
          out.push({ k: 'tool', id: b.id, name: b.name ?? '(result)', input: null, result: cap(b.content), isError: b.isError === true, seq });
        }
      } else if (b.type === 'raw') {
        pending.push({ type: 'raw', rawType: b.rawType });
      } else {
        pending.push({ type: b.type, text: cap(b.text) });
      }
    }
    flush();
  };

  for (const call of calls) {
    const items: TimelineItem[] = [];
    const u = call.usage;
    items.push({
      k: 'call',
      seq: call.seq,
      t: call.timestamp ?? '',
      model: call.model,
      latencyMs: call.latencyMs,
      usage: u,
      costUsd: call.costUsd,
      status: call.status,
      stop: call.stopReason,
      error: call.error ? `${call.error.title}${call.error.title && call.error.detail ? ': ' : ''}${cap(call.error.detail, 2000)}` : '',
      unparsed: call.unparsed ?? '',
      retried: call.retried,
    });
    const keys = call.requestMessages.map(messageKey);
    const common = commonPrefix(keys, prevKeys);
    if (prevKeys.length && common < prevRequestLen && common < keys.length) {
      items.push({ k: 'context', seq: call.seq, note: `This request does not repeat ${prevKeys.length - common} earlier message(s): the context was compacted, truncated, or chained by id.` });
    }
    for (let i = common; i < keys.length; i++) {
      const m = call.requestMessages[i]!;
      // The previous response echoed back in its original position is already drawn.
      if (common === prevRequestLen && i === common && m.role === 'assistant' && prevKeys.length > 0) continue;
      placeBlocks(m.role, m.blocks, call.seq, items);
    }
    if (!call.retried) placeBlocks('assistant', call.response.blocks, call.seq, items);
    prevKeys = [...keys, messageKey(call.response)];
    prevRequestLen = keys.length;
    groups.push({ time: call.timestamp ? Date.parse(call.timestamp) : Number.NaN, items });
  }
  return groups;
}

/** Tokens and their cost at the price table (null: a model without a price). */
export interface Spend {
  tokens: TokenUsage;
  costUsd: number | null;
}

/**
 * The calls' tokens (retried attempts included: they were billed) and cost, unknown when no
 * call is there or one has no price; `tokens.llm_calls` counts the steps, retries left out.
 */
export function callTotals(calls: CanonicalCall[]): Spend & { latencyMs: number; model: string } {
  let tokens = ZERO_TOKENS;
  let latencyMs = 0;
  let costUsd: number | null = calls.length > 0 ? 0 : null;
  for (const c of calls) {
    tokens = addTokens(tokens, callTokens(c.usage));
    latencyMs += c.latencyMs;
    costUsd = addCost(costUsd, c.costUsd);
  }
  return {
    tokens: { ...tokens, llm_calls: calls.filter((c) => !c.retried).length },
    latencyMs,
    costUsd,
    model: calls.find((c) => c.model)?.model ?? '',
  };
}
