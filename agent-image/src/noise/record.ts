// noise.jsonl: one JSON line per injected thing, so a trace can show what was noise.
//   {"kind":"settings", "settings": {...}}                       first line
//   {"kind":"env_event", "event_id", "app", "fn", "offset"}      each planned background event
//   {"kind":"tool_failure", "sim_t", "events_before", "tool", "argv", "message"}
//                                                                each failed agent command;
//                                     events_before = events.jsonl lines written before it
// The ENV noise that actually fired is in events.jsonl (event_id starting "env_expansion_").
import { appendFileSync } from 'node:fs';

export type NoiseRecord =
  | { kind: 'settings'; settings: unknown }
  | { kind: 'env_event'; event_id: string; app: string; fn: string; offset: number }
  | { kind: 'tool_failure'; sim_t: string; events_before: number; tool: string; argv: string[]; message: string };

export class NoiseRecorder {
  constructor(private readonly file: string | null) {}

  write(records: NoiseRecord[]): void {
    if (!this.file || records.length === 0) return;
    appendFileSync(this.file, records.map((r) => JSON.stringify(r) + '\n').join(''));
  }
}
