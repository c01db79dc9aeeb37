// The commands an agent ran, read from its model calls alone: a tool call is in one call's
// answer and its output in a later request (a tool result naming the call's id; by name and
// order when the ids differ, as Gemini's reassembled answers number their calls themselves).
// Only what is new in each request is read, so a result the history repeats is not taken
// for the answer to a newer call of the same tool.
import type { CanonicalCall } from './canonical.js';
import { commonPrefix, messageKey } from './message-key.js';

export interface ToolStep {
  id: string;
  name: string;
  input: unknown;
  /** The output as the agent handed it back; null when no later request carried it (the run ended first). */
  output: string | null;
  isError: boolean;
}

/** For each call (same order), the tool calls of its answer, each with its output when a later request carried it. */
export function toolStepsOfCalls(calls: readonly CanonicalCall[]): ToolStep[][] {
  const out: ToolStep[][] = [];
  const open: ToolStep[] = [];
  const byId = new Map<string, ToolStep>();
  let prevKeys: string[] = [];
  for (const call of calls) {
    const keys = call.requestMessages.map(messageKey);
    for (const m of call.requestMessages.slice(commonPrefix(keys, prevKeys))) {
      for (const b of m.blocks) {
        if (b.type !== 'tool_result') continue;
        const known = b.id ? byId.get(b.id) : undefined;
        const target = known ?? open.find((t) => !b.name || t.name === b.name);
        if (!target || target.output !== null) continue;
        target.output = b.content;
        target.isError = b.isError === true;
        open.splice(open.indexOf(target), 1);
      }
    }
    const steps: ToolStep[] = [];
    // A failed attempt's answer ran nothing: its retry's answer did.
    if (!call.retried) {
      for (const b of call.response.blocks) {
        if (b.type !== 'tool_use') continue;
        const step: ToolStep = { id: b.id, name: b.name, input: b.input, output: null, isError: false };
        steps.push(step);
        open.push(step);
        if (b.id) byId.set(b.id, step);
      }
    }
    out.push(steps);
    prevKeys = [...keys, messageKey(call.response)];
  }
  return out;
}
