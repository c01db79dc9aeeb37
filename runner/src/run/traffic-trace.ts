// A run's trace.jsonl when its agent wrote none: a third-party program (Claude Code, Codex,
// Gemini CLI, OpenClaw) leaves it empty or missing, but each of its model calls passed the
// model gateway, whose record holds them whole. The trace is derived once, when the run's
// record is final (orchestrator/gateway-result.ts). Usage is not read from it: result.json's
// usage comes from the record itself (source "gateway"), so nothing is counted twice.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../fsutil/atomic.js';
import { isRenderableRow, traceOfTraffic } from '../trace/index.js';

export const TRACE_FILE = 'trace.jsonl';

/** Writes `<dir>/trace.jsonl` from the record's agent calls unless the agent's own trace holds a call; true when written. */
export async function keepAgentTrace(dir: string, traffic: string): Promise<boolean> {
  const file = join(dir, TRACE_FILE);
  if (existsSync(file) && holdsCall(readFileSync(file, 'utf8'))) return false;
  const trace = traceOfTraffic(traffic);
  if (!trace) return false;
  await writeFileAtomic(file, trace);
  return true;
}

/**
 * Whether a trace holds a model call, by the parser's own test of a row, up to the first one: our
 * agent's trace (every run) is not read whole here, the viewer and the usage read it once.
 */
function holdsCall(text: string): boolean {
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const row: unknown = JSON.parse(line);
      if (row && typeof row === 'object' && !Array.isArray(row) && isRenderableRow(row as Record<string, unknown>)) return true;
    } catch {
      // a torn line is no call
    }
  }
  return false;
}
