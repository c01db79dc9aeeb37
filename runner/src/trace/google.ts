// Google GenerateContent (JSON and streamGenerateContent SSE).
import { asArr, asObj, asStr, isEmptyObj, type Obj } from './json-util.js';

export const isGoogleShape = (o: Obj): boolean => Array.isArray(o.candidates) || 'promptFeedback' in o;

function finishReason(x: unknown): string {
  const s = asStr(x);
  if (s === 'STOP') return 'stop';
  if (s === 'MAX_TOKENS') return 'length';
  return s.toLowerCase();
}

interface GoogleCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** One response (or one stream chunk); only the first candidate is read. */
export function normalizeGoogleJson(o: Obj): Obj {
  const candidate = asObj(asArr(o.candidates)[0]);
  let content = '';
  let reasoning = '';
  const toolCalls: GoogleCall[] = [];
  asArr(asObj(candidate.content).parts).forEach((p, i) => {
    const part = asObj(p);
    if (part.functionCall) {
      const fc = asObj(part.functionCall);
      toolCalls.push({
        id: asStr(fc.id) || asStr(fc.callId) || `google-call-${i + 1}`,
        type: 'function',
        function: { name: asStr(fc.name), arguments: JSON.stringify(fc.args ?? {}) },
      });
    } else if (typeof part.text === 'string') {
      if (part.thought === true) reasoning += part.text;
      else content += part.text;
    }
  });
  // usageMetadata as Gemini sent it: its counts are read in one place (normalizeUsage).
  const usage = asObj(o.usageMetadata);
  const out: Obj = {
    content,
    tool_calls: toolCalls,
    finish_reason: finishReason(candidate.finishReason),
    usage,
    model: o.modelVersion ?? o.model,
  };
  if (reasoning) out.reasoning = reasoning;
  if (!asArr(o.candidates).length && o.promptFeedback) out.prompt_feedback = o.promptFeedback;
  return out;
}

export function reassembleGoogle(events: unknown[]): Obj {
  let content = '';
  let reasoning = '';
  let usage: Obj = {};
  let model: unknown;
  let finish = '';
  let promptFeedback: unknown;
  const calls: GoogleCall[] = [];
  for (const raw of events) {
    const chunk = normalizeGoogleJson(asObj(raw));
    content += asStr(chunk.content);
    reasoning += asStr(chunk.reasoning);
    if (!isEmptyObj(chunk.usage)) usage = asObj(chunk.usage);
    if (model === undefined && chunk.model !== undefined) model = chunk.model;
    if (chunk.finish_reason) finish = asStr(chunk.finish_reason);
    if (chunk.prompt_feedback) promptFeedback = chunk.prompt_feedback;
    for (const call of chunk.tool_calls as GoogleCall[]) {
      // Streams may resend a call with its arguments extended: replace rather than duplicate.
      const same = calls.findIndex(
        (c) => c.function.name === call.function.name && call.function.arguments.startsWith(c.function.arguments.replace(/}$/, '')),
      );
      if (same >= 0) calls[same] = { ...call, id: calls[same]!.id };
      else calls.push({ ...call, id: call.id.startsWith('google-call-') ? `google-call-${calls.length + 1}` : call.id });
    }
  }
  const out: Obj = { content, tool_calls: calls, finish_reason: finish, usage, model };
  if (reasoning) out.reasoning = reasoning;
  if (promptFeedback) out.prompt_feedback = promptFeedback;
  return out;
}
