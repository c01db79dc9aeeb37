// Pairing each tool call with its output across requests.
import { describe, expect, it } from 'vitest';
import { parseTraceJsonl, toolStepsOfCalls } from '../../../runner/src/trace/index.js';
import { linesOfRole } from '../../../runner/src/trace/traffic-lines.js';
import { thirdPartyTraffic } from '../../helpers/recorded-runs.js';

describe('toolStepsOfCalls', () => {
  it('pairs Gemini CLI calls by name and order: its requests name the calls with ids the answers never had', () => {
    const calls = parseTraceJsonl(linesOfRole(thirdPartyTraffic('gemini-cli'), 'agent')).calls;
    const steps = toolStepsOfCalls(calls);
    // Both answers' calls are numbered google-call-1 by the stream reader; the requests use the program's own ids.
    expect(steps.map((s) => s.map((t) => t.id))).toEqual([['google-call-1'], ['google-call-1'], []]);
    expect(steps[0]![0]!.output).toContain('"item_id');
    expect(steps[1]![0]!.output).toContain('order_id');
  });

  it('does not take a result the history repeats for the answer to a newer call of the same tool', () => {
    // Later requests repeat call 1's result (no id in Gemini's history either way): it must not
    // answer call 2's command, whose result only the third request carries.
    const calls = parseTraceJsonl(linesOfRole(thirdPartyTraffic('gemini-cli'), 'agent')).calls;
    const steps = toolStepsOfCalls(calls);
    expect(steps[1]![0]!.output).not.toContain('"item_id');
  });

  it('leaves the output null when no later request carried it (the run ended first)', () => {
    const calls = parseTraceJsonl(linesOfRole(thirdPartyTraffic('claude-code'), 'agent')).calls.slice(0, 1);
    const [first] = toolStepsOfCalls(calls);
    expect(first).toEqual([{ id: 'call_1', name: 'Bash', input: expect.objectContaining({ command: expect.stringContaining('add-to-cart') }), output: null, isError: false }]);
  });
});
