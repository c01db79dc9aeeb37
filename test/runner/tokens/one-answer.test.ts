// One call, three readers: the gateway's record line (cost_usd), the viewer's reading of that
// line (a call's cost) and the report over the run usage read from the record (the agent's
// cost). All price through tokens/, so they must give the same number; a fourth place that
// priced tokens its own way (say, without cache prices) would break this.
import { describe, expect, it } from 'vitest';
import { TrafficRecorder } from '../../../runner/src/gateway/record.js';
import { usageTotals } from '../../../runner/src/report/usage.js';
import { loadPriceTable } from '../../../runner/src/tokens/index.js';
import { canonicalizeRow } from '../../../runner/src/trace/index.js';
import { usageOfTraffic } from '../../../runner/src/usage/run-usage.js';

const prices = loadPriceTable(undefined, {});
const grant = { runId: 'r', container: 'c1', role: 'agent' as const, upstream: 'anthropic', dir: null, scenario: 's', runIndex: null, recordKey: 's' };

describe('a call costs the same wherever it is read', () => {
  it('gateway record, viewer and report agree, cache reads and writes priced apart', () => {
    const usage = { input_tokens: 400, cache_read_input_tokens: 6_000, cache_creation_input_tokens: 1_500, output_tokens: 250 };
    const line = new TrafficRecorder(prices).line(1, {
      grant, provider: 'anthropic', method: 'POST', url: 'https://api.anthropic.com/v1/messages',
      startedAt: 1_700_000_000_000, endedAt: 1_700_000_001_000, queuedMs: 0, status: 200, attempts: [{ status: 200, ms: 1000 }], stream: false,
      requestText: JSON.stringify({ model: 'claude-sonnet-4-20250514', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] }),
      responseText: JSON.stringify({ model: 'claude-sonnet-4-20250514', role: 'assistant', stop_reason: 'end_turn', content: [{ type: 'text', text: 'hello' }], usage }),
    });
    // Sonnet 4: input 3, cache read 0.3, cache write 3.75, output 15 USD per million.
    const expected = (400 * 3 + 6_000 * 0.3 + 1_500 * 3.75 + 250 * 15) / 1e6;
    expect(line.cost_usd).toBeCloseTo(expected, 12);

    const text = JSON.stringify(line);
    expect(canonicalizeRow(JSON.parse(text) as Record<string, unknown>, 0).costUsd).toBeCloseTo(expected, 12);

    const run = usageOfTraffic(text, {})!;
    const report = usageTotals([{ path: 'p', key: 's', runIndex: 1, split: null, status: 'pass', result: { scenario_id: 's', success: true, status: 'pass', usage: run } }], prices);
    expect(report.agent).toEqual({ input: 7_900, output: 250, cache_read: 6_000, cache_write: 1_500, llm_calls: 1, runs: 1 });
    expect(report.cost.agent.usd).toBeCloseTo(expected, 12);
    expect(report.cost.total_usd).toBeCloseTo(expected, 12);
  });
});
