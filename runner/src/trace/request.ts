// Request bodies of every provider → a list of messages. `messages` wins over `input`
// (Responses API), which wins over `contents` (Gemini).
import { contentToBlocks, partsToBlocks, partToBlocks, resultText, toolCallsToBlocks, type Block, type Message } from './blocks.js';
import { flattenReasoning } from './openai-chat.js';
import { asArr, asObj, asStr, type Obj } from './json-util.js';

function chatMessage(raw: unknown): Message {
  const m = asObj(raw);
  const role = asStr(m.role) || 'user';
  if (role === 'tool' || role === 'function') {
    return {
      role: 'tool',
      blocks: [{ type: 'tool_result', id: asStr(m.tool_call_id), name: asStr(m.name) || undefined, content: resultText(m.content ?? '') }],
    };
  }
  const reasoning = flattenReasoning(m.reasoning_content ?? m.reasoning);
  const blocks: Block[] = reasoning ? [{ type: 'thinking', text: reasoning }] : [];
  blocks.push(...contentToBlocks(m.content), ...toolCallsToBlocks(m.tool_calls));
  return { role: role === 'developer' ? 'system' : role, blocks };
}

function responsesInput(input: unknown, instructions: unknown): Message[] {
  const out: Message[] = [];
  if (typeof instructions === 'string' && instructions) out.push({ role: 'system', blocks: [{ type: 'text', text: instructions }] });
  if (typeof input === 'string') {
    out.push({ role: 'user', blocks: contentToBlocks(input) });
    return out;
  }
  for (const raw of asArr(input)) {
    const item = asObj(raw);
    if (item.role) {
      const role = asStr(item.role);
      out.push({ role: role === 'developer' ? 'system' : role, blocks: contentToBlocks(item.content) });
    } else if (item.type === 'function_call_output') {
      out.push({ role: 'tool', blocks: partToBlocks(item) });
    } else {
      out.push({ role: 'assistant', blocks: partToBlocks(item) });
    }
  }
  return out;
}

function googleContents(req: Obj): Message[] {
  const out: Message[] = [];
  const sys = asObj(req.systemInstruction ?? req.system_instruction);
  const sysBlocks = partsToBlocks(asArr(sys.parts));
  if (sysBlocks.length) out.push({ role: 'system', blocks: sysBlocks });
  for (const raw of asArr(req.contents)) {
    const c = asObj(raw);
    const role = asStr(c.role) || 'user';
    out.push({ role: role === 'model' ? 'assistant' : role, blocks: partsToBlocks(asArr(c.parts)) });
  }
  return out;
}

export function requestMessages(request: unknown): Message[] {
  const req = asObj(request);
  if (Array.isArray(req.messages)) {
    const out: Message[] = [];
    const sysBlocks = contentToBlocks(req.system);
    if (sysBlocks.length) out.push({ role: 'system', blocks: sysBlocks });
    out.push(...req.messages.map(chatMessage));
    return out;
  }
  if (req.input !== undefined) return responsesInput(req.input, req.instructions);
  if (Array.isArray(req.contents)) return googleContents(req);
  return [];
}
