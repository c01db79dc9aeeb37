// What the e2e suites of ACP programs (gemini-cli, opencode, qwen-code, cline) read from a run's directories: each
// scenario's directory, the program's ACP stream as agent-serve kept it (agent-trace/serve-N.<name>.jsonl,
// turn-N.<name>.jsonl: {t, dir, msg} lines, headed by agent-serve's note), the replies judged.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEventsJsonl, type EventLine } from '@gaia2/contract';

export type TraceLine = { dir: string; msg: Record<string, any> };

/** The directory of each scenario of a run: its id → the directory holding its result.json. */
export function scenarioDirs(out: string): Map<string, string> {
  const dirs = new Map<string, string>();
  for (const f of readdirSync(out, { recursive: true, encoding: 'utf8' })) {
    if (f.endsWith('/result.json') && !f.includes('.attempts')) dirs.set(f.split('/').at(-2)!, join(out, f, '..'));
  }
  return dirs;
}

/** The program's ACP stream files of a scenario (agent-trace/*.<name>.jsonl), by file name. */
export function acpTraces(dir: string, name: string): Map<string, TraceLine[]> {
  const out = new Map<string, TraceLine[]>();
  for (const f of readdirSync(join(dir, 'agent-trace')).filter((f) => f.endsWith(`.${name}.jsonl`))) {
    out.set(f, readFileSync(join(dir, 'agent-trace', f), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as TraceLine));
  }
  return out;
}

/** agent-serve's note at the head of a trace file: start, the program's pid, its session. */
export const note = (lines: TraceLine[]): Record<string, any> => lines.find((l) => l.dir === 'note')!.msg;
/** The requests of a method the bridge sent. */
export const sent = (lines: TraceLine[], method: string): TraceLine[] => lines.filter((l) => l.dir === 'out' && l.msg.method === method);
export const events = (dir: string): EventLine[] => parseEventsJsonl(readFileSync(join(dir, 'events.jsonl'), 'utf8'));
/** The agent's replies to the user, in order. */
export const replies = (dir: string): string[] => events(dir).filter((e) => e.fn === 'send_message_to_user').map((e) => String((e.args as { content?: unknown }).content));
