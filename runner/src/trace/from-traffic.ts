// A trace.jsonl for an agent that writes none (Claude Code, Codex, Gemini CLI, OpenClaw): its
// model calls as the model gateway recorded them (model_traffic.jsonl), agent lines only, in
// the order they were made, each with the reference trace's fields (docs/trace-format.md) and
// `tool_calls`: the commands that call's answer ran, each with the output the agent handed
// back in a later request. The gateway's own fields (role, container, queued_ms, …) stay in
// its record.
import { isRenderableRow } from './canonical.js';
import { isObj, type Obj } from './json-util.js';
import { toolStepsOfCalls } from './tool-steps.js';
import { linesOfRole } from './traffic-lines.js';
import { traceFromRows } from './calls.js';

const TRACE_FIELDS = ['seq', 'timestamp', 'type', 'url', 'latency_ms', 'http_status', 'request', 'raw_response', 'usage', 'attempt'] as const;

function agentRows(traffic: string): Obj[] {
  const rows: Obj[] = [];
  for (const line of linesOfRole(traffic, 'agent').split('\n')) {
    if (!line.trim()) continue;
    try {
      const row = JSON.parse(line) as unknown;
      if (isObj(row) && isRenderableRow(row)) rows.push(row);
    } catch {
      // a torn line: the gateway appends whole lines, so only a crash leaves one
    }
  }
  // Lines are appended as exchanges end; seq numbers them as they arrived.
  const seq = (r: Obj): number => (typeof r.seq === 'number' ? r.seq : 0);
  return rows.sort((a, b) => seq(a) - seq(b));
}

/** The agent's calls of a gateway record as trace.jsonl text; '' when the agent made none. */
export function traceOfTraffic(traffic: string): string {
  const rows = agentRows(traffic);
  const steps = toolStepsOfCalls(traceFromRows(rows));
  const lines = rows.map((row, i) => {
    const line: Obj = {};
    for (const k of TRACE_FIELDS) if (k in row) line[k] = row[k];
    line.tool_calls = (steps[i] ?? []).map((s) => ({ id: s.id, name: s.name, input: s.input, output: s.output, is_error: s.isError }));
    return JSON.stringify(line);
  });
  return lines.length ? lines.join('\n') + '\n' : '';
}
