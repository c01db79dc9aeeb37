// OpenAI Responses API: the completed object when the stream has one, else rebuilt from deltas.
import { asArr, asObj, asStr, type Obj } from './json-util.js';

export const isResponsesStream = (first: Obj): boolean => asStr(first.type).startsWith('response.');

export const isResponsesJson = (o: Obj): boolean => o.object === 'response' && Array.isArray(o.output);

const finishReasonFor = (toolCalls: unknown[], content: string): string =>
  toolCalls.length ? 'tool_calls' : content ? 'stop' : '';

function summaryText(item: Obj): string {
  return asArr(item.summary)
    .map((s) => asStr(asObj(s).text))
    .join('');
}

export function normalizeResponsesJson(o: Obj): Obj {
  let content = '';
  let reasoning = '';
  const toolCalls: Obj[] = [];
  for (const raw of asArr(o.output)) {
    const item = asObj(raw);
    if (item.type === 'message') {
      for (const p of asArr(item.content)) {
        const part = asObj(p);
        if (part.type === 'output_text' || part.type === 'text') content += asStr(part.text);
        else if (part.type === 'refusal') content += asStr(part.refusal);
      }
    } else if (item.type === 'function_call') {
      toolCalls.push({
        id: asStr(item.call_id) || asStr(item.id),
        type: 'function',
        function: { name: asStr(item.name), arguments: asStr(item.arguments) },
      });
    } else if (item.type === 'reasoning') {
      reasoning += summaryText(item);
    }
  }
  return responseShape(content, toolCalls, reasoning, o);
}

/** The chat-like shape both paths produce; `meta` supplies usage, model and error. */
function responseShape(content: string, toolCalls: unknown[], reasoning: string, meta: Obj): Obj {
  const out: Obj = {
    content,
    tool_calls: toolCalls,
    usage: asObj(meta.usage),
    model: meta.model,
    finish_reason: finishReasonFor(toolCalls, content),
  };
  if (reasoning) out.reasoning = reasoning;
  if (meta.error) out.error = meta.error;
  return out;
}

export function reassembleResponses(events: unknown[]): Obj {
  let deltaReasoning = '';
  for (const raw of events) {
    const ev = asObj(raw);
    if (ev.type === 'response.reasoning_summary_text.delta') deltaReasoning += asStr(ev.delta);
  }
  const completed = events.map(asObj).find((e) => e.type === 'response.completed');
  if (completed) {
    const out = normalizeResponsesJson(asObj(completed.response));
    if (!out.reasoning && deltaReasoning) out.reasoning = deltaReasoning;
    return out;
  }
  return rebuildFromDeltas(events, deltaReasoning);
}

/** Truncated streams (no response.completed): fold the item and text deltas. */
function rebuildFromDeltas(events: unknown[], deltaReasoning: string): Obj {
  const calls = new Map<string, { id: string; type: string; function: { name: string; arguments: string } }>();
  let content = '';
  let reasoning = deltaReasoning;
  let textDone = false;
  let meta: Obj = {};
  const callFor = (key: string): { id: string; type: string; function: { name: string; arguments: string } } => {
    let c = calls.get(key);
    if (!c) calls.set(key, (c = { id: key, type: 'function', function: { name: '', arguments: '' } }));
    return c;
  };
  for (const raw of events) {
    const ev = asObj(raw);
    const type = asStr(ev.type);
    if (type === 'response.created' || type === 'response.in_progress') meta = asObj(ev.response);
    else if (type === 'response.output_item.added' || type === 'response.output_item.done') {
      const item = asObj(ev.item);
      if (item.type === 'function_call') {
        const c = callFor(asStr(item.id) || asStr(item.call_id));
        c.id = asStr(item.call_id) || c.id;
        if (item.name) c.function.name = asStr(item.name);
        if (item.arguments) c.function.arguments = asStr(item.arguments);
      }
    } else if (type === 'response.function_call_arguments.delta') {
      callFor(asStr(ev.item_id)).function.arguments += asStr(ev.delta);
    } else if (type === 'response.function_call_arguments.done') {
      callFor(asStr(ev.item_id)).function.arguments = asStr(ev.arguments);
    } else if (type === 'response.output_text.delta' && !textDone) {
      content += asStr(ev.delta);
    } else if (type === 'response.output_text.done') {
      content = asStr(ev.text) || content;
      textDone = true;
    } else if (type === 'response.reasoning_summary_part.added' && !deltaReasoning) {
      reasoning += asStr(asObj(ev.part).text);
    }
  }
  return responseShape(content, [...calls.values()], reasoning, meta);
}
