// What the runner reads back from a run's collected artifacts: how many event lines there are,
// the agent's last reply and the final status file. events.jsonl can hold megabytes of return
// values (a search over thousands of emails); it is split into lines once and only the lines
// that can be a reply are parsed, from the end, instead of parsing every line.
import { isReplyLine, SEND_MESSAGE_TO_USER, type DaemonStatus, type EventLine } from '@gaia2/contract';

export interface Collected {
  /** Non-blank lines of events.jsonl (a torn last line included). */
  numAgentEvents: number;
  /** Content of the last non-empty reply to the user in the complete lines; null when none. */
  agentResponse: string | null;
  /** daemon_status.json when present and valid JSON. */
  statusFile: DaemonStatus | null;
}

export function readCollected(artifacts: ReadonlyMap<string, Buffer>): Collected {
  const text = artifacts.get('events.jsonl')?.toString('utf8') ?? '';
  const lines = text.split('\n');
  let numAgentEvents = 0;
  for (const l of lines) if (l.trim()) numAgentEvents++;
  // The last element is a torn line (or '' after the final newline): never a reply.
  let agentResponse: string | null = null;
  for (let i = lines.length - 2; i >= 0 && agentResponse === null; i--) {
    const line = lines[i]!;
    if (!line.includes(SEND_MESSAGE_TO_USER)) continue;
    try {
      const e = JSON.parse(line) as EventLine;
      const c = e && isReplyLine(e) ? (e.args as { content?: unknown } | null)?.content : null;
      if (typeof c === 'string' && c.trim() !== '') agentResponse = c;
    } catch {
      // a malformed line is not a reply
    }
  }
  let statusFile: DaemonStatus | null = null;
  const status = artifacts.get('daemon_status.json');
  if (status) {
    try {
      statusFile = JSON.parse(status.toString('utf8')) as DaemonStatus;
    } catch {
      // keep what /status said
    }
  }
  return { numAgentEvents, agentResponse, statusFile };
}
