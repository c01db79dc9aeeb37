// OpenAI Chat Completions (and the Llama-API "completion_message" variant).
import { asArr, asObj, asStr, isEmptyObj, isObj, type Obj } from './json-util.js';

/** Reasoning arrives as a string, a list of parts, or an object holding text/content/summary. */
export function flattenReasoning(x: unknown): string {
  if (typeof x === 'string') return x;
  if (Array.isArray(x)) return x.map(flattenReasoning).join('');
  if (isObj(x)) return flattenReasoning(x.text ?? x.content ?? x.summary ?? '');
  return '';
}

function reasoningOf(o: Obj): string {
  const primary = flattenReasoning(o.reasoning_content);
  return primary || flattenReasoning(o.reasoning);
}

export function reassembleOpenAiChat(events: unknown[]): Obj {
  let content = '';
  let reasoning = '';
  let finishReason = '';
  let usage: Obj = {};
  let model: unknown;
  const calls = new Map<number, { id: string; type: string; function: { name: string; arguments: string } }>();

  for (const raw of events) {
    const ev = asObj(raw);
    if (model === undefined && ev.model) model = ev.model;
    if (!isEmptyObj(ev.usage)) usage = asObj(ev.usage);
    for (const c of asArr(ev.choices)) {
      const choice = asObj(c);
      const delta = asObj(choice.delta);
      content += asStr(delta.content);
      reasoning += reasoningOf(delta);
      for (const t of asArr(delta.tool_calls)) {
        const tc = asObj(t);
        const index = typeof tc.index === 'number' ? tc.index : calls.size;
        const slot = calls.get(index) ?? { id: '', type: 'function', function: { name: '', arguments: '' } };
        calls.set(index, slot);
        if (tc.id) slot.id = asStr(tc.id);
        const fn = asObj(tc.function);
        if (fn.name) slot.function.name = asStr(fn.name);
        slot.function.arguments += asStr(fn.arguments);
      }
      if (choice.finish_reason) finishReason = asStr(choice.finish_reason);
    }
  }
  const out: Obj = { content, usage, finish_reason: finishReason };
  if (calls.size) out.tool_calls = [...calls.entries()].sort((a, b) => a[0] - b[0]).map(([, v]) => v);
  if (reasoning) out.reasoning = reasoning;
  if (model !== undefined) out.model = model;
  return out;
}

export const isOpenAiChatJson = (o: Obj): boolean => Array.isArray(o.choices);

export function normalizeOpenAiChatJson(o: Obj): Obj {
  const choice = asObj(asArr(o.choices)[0]);
  const message = asObj(choice.message);
  const out: Obj = {
    content: message.content ?? '',
    tool_calls: message.tool_calls,
    finish_reason: choice.finish_reason ?? '',
    usage: asObj(o.usage),
    model: o.model,
  };
  const reasoning = reasoningOf(message);
  if (reasoning) out.reasoning = reasoning;
  return out;
}

export const isNativeCompletion = (o: Obj): boolean => 'completion_message' in o;

/** Llama-API shape: a completion_message plus a metrics list. */
export function normalizeNativeCompletion(o: Obj): Obj {
  const msg = asObj(o.completion_message);
  const c = msg.content;
  const content = isObj(c) && c.type === 'text' ? asStr(c.text) : c;
  // The metrics list is this API's usage, kept as sent: normalizeUsage reads it.
  return { content, tool_calls: msg.tool_calls, finish_reason: msg.stop_reason, usage: asArr(o.metrics), model: o.model };
}
