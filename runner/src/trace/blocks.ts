// One content-block union for every provider's request and response parts. Unlike the
// reference, tool_use/tool_result keep their ids so calls pair with results exactly.
import { asArr, asObj, asStr, compactJson, isObj, tryParseJson } from './json-util.js';

export type Block =
  | { type: 'text'; text: string }
  | { type: 'thinking'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; id: string; name?: string; content: string; isError?: boolean }
  | { type: 'raw'; rawType: string };

export interface Message {
  role: string;
  blocks: Block[];
}

/** Tool arguments are JSON text on the wire for OpenAI/Responses; show them parsed when they parse. */
export function parseArgs(x: unknown): unknown {
  if (typeof x !== 'string') return x ?? {};
  const parsed = tryParseJson(x);
  return parsed === undefined ? x : parsed;
}

/** Tool output as text: strings as is, part lists joined, anything else as compact JSON. */
export function resultText(x: unknown): string {
  if (typeof x === 'string') return x;
  if (Array.isArray(x)) {
    return x
      .map((p) => {
        const o = asObj(p);
        return typeof p === 'string' ? p : typeof o.text === 'string' ? o.text : compactJson(p);
      })
      .join('\n');
  }
  return compactJson(x);
}

const TEXT_TYPES = new Set(['text', 'input_text', 'output_text', '']);

export function partToBlocks(p: unknown): Block[] {
  if (typeof p === 'string') return p ? [{ type: 'text', text: p }] : [];
  const o = asObj(p);
  const type = asStr(o.type);
  if (isObj(o.functionCall)) {
    const fc = o.functionCall;
    return [{ type: 'tool_use', id: asStr(fc.id) || asStr(fc.callId), name: asStr(fc.name), input: fc.args ?? {} }];
  }
  if (isObj(o.functionResponse)) {
    const fr = o.functionResponse;
    return [{ type: 'tool_result', id: asStr(fr.id), name: asStr(fr.name), content: compactJson(fr.response ?? null) }];
  }
  if (TEXT_TYPES.has(type) && typeof o.text === 'string') {
    return [o.thought === true ? { type: 'thinking', text: o.text } : { type: 'text', text: o.text }];
  }
  switch (type) {
    case 'thinking':
      return [{ type: 'thinking', text: asStr(o.thinking) }];
    case 'refusal':
      return [{ type: 'text', text: asStr(o.refusal) }];
    case 'tool_use':
      return [{ type: 'tool_use', id: asStr(o.id), name: asStr(o.name), input: o.input ?? {} }];
    case 'tool_result':
      return [{ type: 'tool_result', id: asStr(o.tool_use_id), content: resultText(o.content ?? ''), isError: o.is_error === true }];
    case 'function_call':
      return [{ type: 'tool_use', id: asStr(o.call_id) || asStr(o.id), name: asStr(o.name), input: parseArgs(o.arguments) }];
    case 'function_call_output':
      return [{ type: 'tool_result', id: asStr(o.call_id), content: resultText(o.output ?? '') }];
    case 'reasoning': {
      const text = asArr(o.summary).map((s) => asStr(asObj(s).text)).join('');
      return text ? [{ type: 'thinking', text }] : [];
    }
    default:
      return [{ type: 'raw', rawType: type || 'unknown' }];
  }
}

/** A loop rather than flatMap: every message of every request comes through here, and V8's flatMap is several times slower. */
export function partsToBlocks(parts: unknown[]): Block[] {
  const out: Block[] = [];
  for (const p of parts) for (const b of partToBlocks(p)) out.push(b);
  return out;
}

export function contentToBlocks(content: unknown): Block[] {
  if (content === null || content === undefined) return [];
  if (typeof content === 'string') return content ? [{ type: 'text', text: content }] : [];
  if (Array.isArray(content)) return partsToBlocks(content);
  return [{ type: 'text', text: compactJson(content) }];
}

/** OpenAI-shaped tool calls ({id, function:{name, arguments}}) as tool_use blocks. */
export function toolCallsToBlocks(calls: unknown, startIndex = 0): Block[] {
  return asArr(calls).map((c, i) => {
    const call = asObj(c);
    const fn = asObj(call.function);
    const name = asStr(fn.name) || asStr(call.name);
    return {
      type: 'tool_use' as const,
      id: asStr(call.id) || `tool-call-${startIndex + i + 1}`,
      name,
      input: parseArgs(fn.arguments ?? call.arguments),
    };
  });
}

/** Plain text of a message (for search, keys and summaries). */
export function blocksText(blocks: Block[]): string {
  return blocks
    .map((b) => {
      switch (b.type) {
        case 'text':
        case 'thinking':
          return b.text;
        case 'tool_use':
          return `${b.name} ${compactJson(b.input)}`;
        case 'tool_result':
          return b.content;
        default:
          return '';
      }
    })
    .join('\n');
}
