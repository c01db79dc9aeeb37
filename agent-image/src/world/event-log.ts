// events.jsonl with the daemon as its single writer: every line is appended in one write()
// with O_APPEND (contract/pyjson.ts appendEventLines), and kept in memory in the same order,
// so the daemon never re-reads its own output. Readers of the file (tests, the runner) use
// readCompleteLines, which never consumes a torn last line (fixes W4).
import { closeSync, openSync, readSync, fstatSync, writeFileSync } from 'node:fs';
import { appendEventLines } from '../contract/pyjson.js';
import type { EventLine } from '../contract/events.js';

export type EventListener = (lines: readonly EventLine[]) => void;

export class EventLog {
  readonly lines: EventLine[] = [];
  private readonly listeners: EventListener[] = [];

  constructor(readonly file: string, opts: { truncate?: boolean } = {}) {
    if (opts.truncate) writeFileSync(file, '');
  }

  append(lines: readonly EventLine[]): void {
    if (lines.length === 0) return;
    appendEventLines(this.file, lines);
    this.lines.push(...lines);
    for (const l of this.listeners) l(lines);
  }

  onAppend(l: EventListener): void {
    this.listeners.push(l);
  }
}

/** Complete ("\n"-terminated) lines of `file` from byte `offset`; `next` is where to resume. */
export function readCompleteLines(file: string, offset: number): { lines: string[]; next: number } {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return { lines: [], next: offset };
  }
  try {
    const size = fstatSync(fd).size;
    if (size <= offset) return { lines: [], next: offset };
    const buf = Buffer.alloc(size - offset);
    const n = readSync(fd, buf, 0, buf.length, offset);
    const end = buf.subarray(0, n).lastIndexOf(0x0a);
    if (end < 0) return { lines: [], next: offset };
    const text = buf.subarray(0, end + 1).toString('utf8');
    return { lines: text.split('\n').filter((l) => l.trim() !== ''), next: offset + end + 1 };
  } finally {
    closeSync(fd);
  }
}
