// The trace derived from the gateway's record, on real records of the four third-party agents.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTraceJsonl, traceOfTraffic } from '../../../runner/src/trace/index.js';
import { linesOfRole } from '../../../runner/src/trace/traffic-lines.js';
import { FIXTURES, THIRD_PARTY_AGENTS, thirdPartyTraffic } from '../../helpers/recorded-runs.js';

const REFERENCE_FIELDS = ['seq', 'timestamp', 'type', 'url', 'latency_ms', 'http_status', 'request', 'raw_response', 'usage', 'attempt'];
// What each program ran (the scripted provider asked for these two commands, in this order).
const COMMANDS = [/shopping add-to-cart --item-id 'ececbe590b923620bc5384dc4ef7bd0e' --quantity '2'/, /shopping checkout --discount-code 'HYDRATE5'/];

const rows = (text: string): Array<Record<string, unknown>> => text.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);

describe('traceOfTraffic', () => {
  for (const agent of THIRD_PARTY_AGENTS) {
    it(`${agent}: one line per agent call with the reference fields, each command with its output`, () => {
      const traffic = thirdPartyTraffic(agent);
      const trace = rows(traceOfTraffic(traffic));
      const recorded = rows(linesOfRole(traffic, 'agent'));
      expect(trace.map((r) => r.seq)).toEqual(recorded.map((r) => r.seq));
      for (const [i, line] of trace.entries()) {
        expect(Object.keys(line)).toEqual([...REFERENCE_FIELDS, 'tool_calls']);
        // The exchange itself is the record's, untouched.
        for (const k of REFERENCE_FIELDS) expect(line[k]).toEqual(recorded[i]![k]);
      }
      const steps = trace.map((r) => r.tool_calls as Array<{ name: string; input: unknown; output: string | null; is_error: boolean }>);
      expect(steps.map((s) => s.length)).toEqual([1, 1, 0]);
      for (const [i, re] of COMMANDS.entries()) {
        const step = steps[i]![0]!;
        expect(JSON.stringify(step.input)).toMatch(re);
        // The shopping app's JSON answer to that command, as the program handed it back.
        expect(step.output).toContain(i === 0 ? 'ececbe590b923620bc5384dc4ef7bd0e' : 'order_id');
        expect(step.is_error).toBe(false);
      }
      // Every trace reader reads it: the same three calls, none taken for a retry.
      const parsed = parseTraceJsonl(traceOfTraffic(traffic));
      expect(parsed.calls.map((c) => c.retried)).toEqual([false, false, false]);
      expect(parsed.badLines).toEqual([]);
    });
  }

  it('is empty when the agent made no call (only the judge did)', () => {
    const traffic = readFileSync(join(FIXTURES, 'judge-only-traffic', 'model_traffic.jsonl'), 'utf8');
    expect(linesOfRole(traffic, 'judge')).not.toBe('');
    expect(traceOfTraffic(traffic)).toBe('');
  });

  it('keeps the agent lines only, in seq order, when the record interleaves roles out of order', () => {
    const traffic = thirdPartyTraffic('openclaw');
    const judge = readFileSync(join(FIXTURES, 'judge-only-traffic', 'model_traffic.jsonl'), 'utf8').trim();
    const lines = traffic.trim().split('\n');
    const shuffled = [lines[2], judge, lines[0], lines[1]].join('\n') + '\n';
    expect(rows(traceOfTraffic(shuffled)).map((r) => r.seq)).toEqual([1, 2, 3]);
  });
});
