// A scripted model that drives a real agent program through that program's own shell tool.
// It reads each request's conversation (conversation.ts): the latest user message picks the
// turn (by words of it), the tool results that came back since then say how many of the
// turn's commands already ran, and the answer is the next command as a call of the agent's
// shell tool, or the turn's reply once all ran. A message that came in during a turn (right
// after a tool result: a program that takes input mid-turn put it there) does not start a turn:
// the turn goes on, and the request is kept in `midTurn`. A call the program answered as not run
// (skipped for an incoming message) is made again, as a model would. Requests it cannot place (a
// notification it has no turn for, a side request of the agent) get `otherwise` and are kept
// in `unplaced`.
import { readRequest, type ConversationItem } from './conversation.js';
import type { RecordedRequest } from './server.js';
import { call, say, type FakeFormat, type FakeReply, type FakeScriptItem } from './script.js';

/** An agent's own shell tool as its model must call it. */
export interface AgentShell {
  format: FakeFormat;
  /** The tool's name in the agent's `tools` list. */
  tool: string;
  /** The call's arguments for one command line. */
  args(command: string): Record<string, unknown>;
  /** The command's output in the tool result the program sent back, when it wraps it (Cline: JSON); the result as is without. */
  output?(result: string): string;
}

export interface DriverTurn {
  /** Words of the user message that starts the turn. */
  when: string;
  /** Shell command lines, one tool call each, in order. */
  commands: string[];
  reply: string;
}

export interface ShellDriver {
  respond(req: RecordedRequest): FakeScriptItem;
  /** Requests that matched no turn (answered with `otherwise`). */
  unplaced: RecordedRequest[];
  /** Requests whose latest user message came in during a turn (after a tool result), with that message. */
  midTurn: Array<{ req: RecordedRequest; text: string }>;
}

// Harness notes some agents put into user messages; they are not the user speaking.
const REMINDER = /<system-reminder>[\s\S]*?<\/system-reminder>/g;
/** A user message's text without the harness notes an agent put in it. */
export const spokenText = (text: string): string => text.replace(REMINDER, '').trim();
const spoken = (item: ConversationItem): boolean => item.kind === 'user' && spokenText(item.text) !== '';
// A world notification, also behind the envelope some programs put before a message (OpenClaw:
// sender metadata and a time stamp, "[Thu 2025-10-09 09:00 UTC] [Notification] …").
const NOTIFICATION = /(?:^|\] )\[Notifications?\]/;
// A tool result saying the program did not run the call (OpenClaw 2026.9 in steer mode skips the
// turn's pending calls when a message comes in): a model calls it again, so it does not count as run.
const NOT_RUN = /^\s*Skipped to process an incoming message\.?\s*$/;

/**
 * The user message that started the turn a request belongs to: the last one spoken, unless that
 * is a world notification taken into the running turn (a program that accepts input mid-turn:
 * it follows the turn's tool results or messages, not a reply that ended a turn), then the one
 * before it.
 */
function turnStart(items: ConversationItem[]): number {
  let last = -1;
  for (let i = items.length - 1; i >= 0 && last < 0; i--) if (spoken(items[i]!)) last = i;
  while (last > 0 && NOTIFICATION.test(spokenText((items[last] as { text: string }).text)) && items[last - 1]!.kind !== 'assistant') {
    let before = -1;
    for (let i = last - 1; i >= 0 && before < 0; i--) if (spoken(items[i]!)) before = i;
    if (before < 0) break;
    last = before;
  }
  return last;
}

export function shellDriver(shell: AgentShell, turns: readonly DriverTurn[], otherwise: FakeReply = say('Noted.')): ShellDriver {
  const unplaced: RecordedRequest[] = [];
  const midTurn: ShellDriver['midTurn'] = [];
  return {
    unplaced,
    midTurn,
    respond(req) {
      const { items } = readRequest(shell.format, req.body);
      const last = turnStart(items);
      const said = last >= 0 ? (items[last] as { text: string }).text : '';
      const turn = turns.find((t) => said.includes(t.when));
      // Notifications taken into the running turn (spoken after its start) are kept.
      if (turn) {
        for (const i of items.slice(last + 1)) {
          if (spoken(i) && !midTurn.some((m) => m.text === (i as { text: string }).text)) midTurn.push({ req, text: (i as { text: string }).text });
        }
      }
      if (!turn) {
        unplaced.push(req);
        return otherwise;
      }
      const ran = items.slice(last + 1).filter((i) => i.kind === 'result' && !NOT_RUN.test(i.text)).length;
      const next = turn.commands[ran];
      return next === undefined ? say(turn.reply) : call(shell.tool, shell.args(next));
    },
  };
}

/** Every call of `tool` in a request's conversation, with the result that came back for it. */
export function shellExchanges(format: FakeFormat, body: unknown, tool: string): Array<{ args: Record<string, unknown>; result: string | null }> {
  const { items } = readRequest(format, body);
  return items.flatMap((c, i) => {
    if (c.kind !== 'call' || c.name !== tool) return [];
    const result = items.slice(i + 1).find((r) => r.kind === 'result' && (c.id === undefined || r.id === undefined || r.id === c.id));
    return [{ args: c.args, result: result && result.kind === 'result' ? result.text : null }];
  });
}
