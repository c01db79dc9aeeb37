// Anthropic Messages: streamed events are folded back into the non-streaming message shape.
import { asObj, asStr, isObj, tryParseJson, type Obj } from './json-util.js';

const START_EVENTS = new Set(['message_start', 'content_block_start', 'content_block_delta', 'ping', 'error']);

export const isAnthropicStream = (first: Obj): boolean => START_EVENTS.has(asStr(first.type));

export function reassembleAnthropic(events: unknown[]): Obj {
  const blocks: Obj[] = [];
  const pendingJson = new Map<number, string>();
  const usage: Obj = {};
  let model: unknown;
  let stopReason: unknown;
  let error: unknown;

  const finishToolInput = (index: number): void => {
    const parts = pendingJson.get(index);
    const block = blocks[index];
    pendingJson.delete(index);
    if (parts === undefined || !block) return;
    const parsed = tryParseJson(parts);
    if (isObj(parsed)) block.input = parsed;
    else delete block.input; // broken fragments: no input rather than a wrong one
  };

  for (const raw of events) {
    const ev = asObj(raw);
    const index = typeof ev.index === 'number' ? ev.index : blocks.length;
    switch (ev.type) {
      case 'message_start': {
        const msg = asObj(ev.message);
        model = msg.model;
        Object.assign(usage, asObj(msg.usage));
        break;
      }
      case 'content_block_start':
        blocks[index] = { ...asObj(ev.content_block) };
        if (blocks[index]!.type === 'tool_use') pendingJson.set(index, '');
        break;
      case 'content_block_delta': {
        const d = asObj(ev.delta);
        const block = (blocks[index] ??= { type: d.type === 'thinking_delta' ? 'thinking' : 'text' });
        if (d.type === 'text_delta') block.text = asStr(block.text) + asStr(d.text);
        else if (d.type === 'thinking_delta') block.thinking = asStr(block.thinking) + asStr(d.thinking);
        else if (d.type === 'input_json_delta') pendingJson.set(index, (pendingJson.get(index) ?? '') + asStr(d.partial_json));
        break;
      }
      case 'content_block_stop':
        finishToolInput(index);
        break;
      case 'message_delta': {
        const d = asObj(ev.delta);
        if (d.stop_reason !== undefined) stopReason = d.stop_reason;
        // Counts here are running totals (output, and input where server tools added some):
        // they replace message_start's.
        Object.assign(usage, asObj(ev.usage));
        break;
      }
      case 'error':
        error = ev.error;
        break;
    }
  }
  // A stream cut before content_block_stop still yields whatever input parsed.
  for (const index of [...pendingJson.keys()]) {
    if (pendingJson.get(index) === '') pendingJson.delete(index);
    else finishToolInput(index);
  }
  const out: Obj = { content: blocks.filter(Boolean), stop_reason: stopReason, usage };
  if (model !== undefined) out.model = model;
  if (error !== undefined) out.error = error;
  return out;
}

export const isAnthropicJson = (o: Obj): boolean => 'content' in o && 'stop_reason' in o;

export function normalizeAnthropicJson(o: Obj): Obj {
  return { content: o.content, stop_reason: o.stop_reason, usage: asObj(o.usage), model: o.model };
}
