// What a client sent, read back from a request body in any of the four wire formats: the
// tools it offered and its conversation as one flat list (user texts, the model's earlier
// tool calls, tool results). Lets a scripted model read its conversation the same way
// whichever program talks to it, and lets tests assert what a real agent sent.
import type { FakeFormat } from './script.js';

export type ConversationItem =
  | { kind: 'user'; text: string }
  | { kind: 'assistant'; text: string }
  | { kind: 'call'; name: string; args: Record<string, unknown>; id?: string }
  | { kind: 'result'; text: string; id?: string };

export interface ReadRequest {
  /** Names of the tools offered, in order (nested namespaces flattened). */
  tools: string[];
  items: ConversationItem[];
}

type Obj = Record<string, any>;
const asArray = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);
const textOf = (v: unknown): string =>
  typeof v === 'string'
    ? v
    : Array.isArray(v)
      ? v.map((p) => (typeof p === 'string' ? p : typeof p?.text === 'string' ? p.text : '')).join('\n')
      : v === undefined || v === null
        ? ''
        : JSON.stringify(v);
const parseArgs = (v: unknown): Record<string, unknown> => {
  if (v && typeof v === 'object') return v as Record<string, unknown>;
  try {
    return JSON.parse(String(v ?? '{}')) as Record<string, unknown>;
  } catch {
    return { _raw: String(v) };
  }
};

function anthropic(body: Obj): ReadRequest {
  const items: ConversationItem[] = [];
  for (const m of asArray(body.messages)) {
    const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : asArray(m.content);
    const texts: string[] = [];
    for (const b of blocks) {
      if (b.type === 'text') texts.push(String(b.text));
      else if (b.type === 'tool_use') items.push({ kind: 'call', name: b.name, args: parseArgs(b.input), id: b.id });
      else if (b.type === 'tool_result') items.push({ kind: 'result', text: textOf(b.content), id: b.tool_use_id });
    }
    if (texts.length > 0) items.push({ kind: m.role === 'assistant' ? 'assistant' : 'user', text: texts.join('\n') });
  }
  return { tools: asArray(body.tools).map((t) => String(t.name)), items };
}

function responses(body: Obj): ReadRequest {
  const items: ConversationItem[] = [];
  const input = typeof body.input === 'string' ? [{ type: 'message', role: 'user', content: body.input }] : asArray(body.input);
  for (const it of input) {
    const type = it.type ?? 'message';
    if (type === 'message' && (it.role === 'user' || it.role === 'assistant')) {
      items.push({ kind: it.role, text: textOf(it.content) });
    } else if (type === 'function_call' || type === 'custom_tool_call') {
      items.push({ kind: 'call', name: it.name, args: parseArgs(it.arguments ?? it.input), id: it.call_id });
    } else if (type === 'function_call_output' || type === 'custom_tool_call_output') {
      items.push({ kind: 'result', text: textOf(it.output), id: it.call_id });
    }
  }
  const names = (tools: Obj[]): string[] => tools.flatMap((t) => (t.type === 'namespace' ? names(asArray(t.tools)) : [String(t.name ?? t.type)]));
  return { tools: names(asArray(body.tools)), items };
}

function gemini(body: Obj): ReadRequest {
  const items: ConversationItem[] = [];
  for (const c of asArray(body.contents)) {
    const texts: string[] = [];
    for (const p of asArray(c.parts)) {
      if (typeof p.text === 'string' && !p.thought) texts.push(p.text);
      else if (p.functionCall) items.push({ kind: 'call', name: p.functionCall.name, args: parseArgs(p.functionCall.args), id: p.functionCall.id });
      else if (p.functionResponse) items.push({ kind: 'result', text: textOf(p.functionResponse.response?.output ?? p.functionResponse.response), id: p.functionResponse.id });
    }
    if (texts.length > 0) items.push({ kind: c.role === 'model' ? 'assistant' : 'user', text: texts.join('\n') });
  }
  const tools = asArray(body.tools).flatMap((t) => asArray(t.functionDeclarations).map((f) => String(f.name)));
  return { tools, items };
}

function chat(body: Obj): ReadRequest {
  const items: ConversationItem[] = [];
  for (const m of asArray(body.messages)) {
    if (m.role === 'user') items.push({ kind: 'user', text: textOf(m.content) });
    else if (m.role === 'tool') items.push({ kind: 'result', text: textOf(m.content), id: m.tool_call_id });
    else if (m.role === 'assistant') {
      if (textOf(m.content)) items.push({ kind: 'assistant', text: textOf(m.content) });
      for (const c of asArray(m.tool_calls)) items.push({ kind: 'call', name: c.function?.name, args: parseArgs(c.function?.arguments), id: c.id });
    }
  }
  return { tools: asArray(body.tools).map((t) => String(t.function?.name ?? t.name)), items };
}

const READERS: Record<FakeFormat, (body: Obj) => ReadRequest> = {
  anthropic,
  'openai-responses': responses,
  gemini,
  'openai-chat': chat,
};

/** The tools and conversation of one request body in the given format. */
export function readRequest(format: FakeFormat, body: unknown): ReadRequest {
  return READERS[format](body && typeof body === 'object' ? (body as Obj) : {});
}
