// An ACP program's steps from its session/update notifications (gaia2-runner,
// runner/src/agents/kit/; installed as /opt/gaia2-agent/lib/acp-steps.mjs): each tool call with
// its input, its output and how it ended, and the agent's messages and thoughts between them, one
// JSON line each, in the order they happened. The raw protocol stays in the bridge's
// turn-N.*.jsonl; these lines are what a reader of the run wants from it (docs/agents.md,
// "Any ACP program").
import { appendFileSync } from 'node:fs';

/** The text of a tool call's content blocks (text blocks as they are; a diff or terminal named). */
export function contentText(content) {
  const parts = [];
  for (const c of Array.isArray(content) ? content : []) {
    if (c?.type === 'content' && c.content?.type === 'text') parts.push(String(c.content.text ?? ''));
    else if (c?.type === 'diff') parts.push(`(diff of ${c.path ?? 'a file'})`);
    else if (c?.type === 'terminal') parts.push(`(terminal ${c.terminalId ?? ''})`);
  }
  return parts.join('\n');
}

/** A tool call's output: its content's text, else its rawOutput (a string as it is, an object's `output` or the object). */
function outputOf(u) {
  const text = contentText(u.content);
  if (text) return text;
  const raw = u.rawOutput;
  if (raw === undefined || raw === null) return '';
  if (typeof raw === 'string') return raw;
  if (typeof raw.output === 'string') return raw.output;
  return JSON.stringify(raw);
}

const ENDED = new Set(['completed', 'failed']);

/**
 * Turns session/update notifications into step lines. `add(update)` returns the lines the update
 * completes (a message or thought once something else follows it, a tool call once it ended);
 * `flush()` those still open at the end of the turn. Lines: {step: 'message'|'thought', text},
 * {step: 'tool', id, title, kind, input, output, status}.
 */
export class StepMapper {
  constructor() {
    this.text = null;
    this.calls = new Map();
  }

  /** The message or thought being streamed, ended. */
  endText() {
    const t = this.text;
    this.text = null;
    return t && t.text.trim() ? [{ step: t.step, text: t.text }] : [];
  }

  add(u) {
    const kind = u?.sessionUpdate;
    if (kind === 'agent_message_chunk' || kind === 'agent_thought_chunk') {
      const step = kind === 'agent_message_chunk' ? 'message' : 'thought';
      const text = u.content?.type === 'text' ? String(u.content.text ?? '') : '';
      const out = this.text && this.text.step !== step ? this.endText() : [];
      this.text ??= { step, text: '' };
      this.text.text += text;
      return out;
    }
    if (kind !== 'tool_call' && kind !== 'tool_call_update') return [];
    const out = this.endText();
    const id = String(u.toolCallId ?? '');
    const call = this.calls.get(id) ?? { step: 'tool', id, title: '', kind: 'other', input: null, output: '', status: 'pending' };
    if (u.title) call.title = String(u.title);
    if (u.kind) call.kind = String(u.kind);
    if (u.rawInput !== undefined) call.input = u.rawInput;
    if (u.status) call.status = String(u.status);
    const output = outputOf(u);
    if (output) call.output = output;
    this.calls.set(id, call);
    if (ENDED.has(call.status)) {
      this.calls.delete(id);
      out.push({ ...call });
    }
    return out;
  }

  /** What is still open at the end of a turn: the last message, tool calls that never said they ended. */
  flush() {
    const out = [...this.endText(), ...[...this.calls.values()].map((c) => ({ ...c }))];
    this.calls.clear();
    return out;
  }
}

/** A step log in `file` (none when undefined): each line with the turn and the time it was written. */
export class StepLog {
  constructor(file) {
    this.file = file;
    this.mapper = new StepMapper();
    this.turn = 0;
  }

  write(lines) {
    if (!this.file) return;
    // Date reads the scenario's simulated clock in the agent's container: the steps' time in the scenario.
    for (const l of lines) appendFileSync(this.file, JSON.stringify({ turn: this.turn, time: new Date().toISOString(), ...l }) + '\n');
  }

  update(u) {
    this.write(this.mapper.add(u));
  }

  startTurn(turn) {
    this.turn = turn;
  }

  endTurn() {
    this.write(this.mapper.flush());
  }
}
