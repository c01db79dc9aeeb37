// A run's trace.jsonl when its agent wrote none: a third-party program (Claude Code, Codex,
// Gemini CLI, OpenClaw) leaves it empty or missing, but each of its model calls passed the
// model gateway, whose record holds them whole. The trace is derived once, when the run's
// record is final (orchestrator/gateway-result.ts). Usage is not read from it: result.json's
// usage comes from the record itself (source "gateway"), so nothing is counted twice.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../fsutil/atomic.js';
import { parseTraceJsonl, traceOfTraffic } from '../trace/index.js';

export const TRACE_FILE = 'trace.jsonl';

/** Writes `<dir>/trace.jsonl` from the record's agent calls unless the agent's own trace holds a call; true when written. */
export async function keepAgentTrace(dir: string, traffic: string): Promise<boolean> {
  const file = join(dir, TRACE_FILE);
  if (existsSync(file) && parseTraceJsonl(readFileSync(file, 'utf8')).calls.length > 0) return false;
  const trace = traceOfTraffic(traffic);
  if (!trace) return false;
  await writeFileAtomic(file, trace);
  return true;
}
