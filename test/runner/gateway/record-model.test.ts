// A Gemini API request names its model only in the URL (models/<m>:streamGenerateContent): the
// gateway's record line of it, and the run's usage and cost read from that record, must still
// name the model, or a Gemini CLI run's cost is "no price".
import { describe, expect, it } from 'vitest';
import { TrafficRecorder } from '../../../runner/src/gateway/record.js';
import { costUsd, defaultPriceTable } from '../../../runner/src/tokens/index.js';
import { canonicalizeRow } from '../../../runner/src/trace/index.js';
import { usageOfTraffic } from '../../../runner/src/usage/run-usage.js';

const grant = { runId: 'r', container: 'c1', role: 'agent' as const, upstream: 'google', dir: null, scenario: 's', runIndex: null, recordKey: 's' };
const sse = (o: unknown) => `data: ${JSON.stringify(o)}\r\n\r\n`;

/** One streamed Gemini call as the gateway records it: the body has contents, no model. */
function geminiLine(recorder: TrafficRecorder): string {
  const responseText = sse({ candidates: [{ content: { role: 'model', parts: [{ text: 'done' }] }, finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 1200, candidatesTokenCount: 30, cachedContentTokenCount: 200 } });
  const line = recorder.line(1, {
    grant, provider: 'google', method: 'POST',
    url: 'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
    startedAt: 1_700_000_000_000, endedAt: 1_700_000_000_500, queuedMs: 0, status: 200, attempts: [{ status: 200, ms: 500 }], stream: true,
    requestText: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }], generationConfig: {} }),
    responseText,
  });
  return JSON.stringify(line);
}

describe("the gateway's record of a Gemini API call", () => {
  it('names the model from the URL path, and the run usage read from the record carries it, so the call is priced', () => {
    const prices = defaultPriceTable();
    const text = geminiLine(new TrafficRecorder(prices));
    expect(JSON.parse(text).model).toBe('gemini-2.5-flash');
    expect(JSON.parse(text).cost_usd).toBeGreaterThan(0);
    // The orchestrator reads the record with no container environment (no MODEL to fall back on).
    const agent = usageOfTraffic(text, {})!.agent!;
    expect(agent).toMatchObject({ model: 'gemini-2.5-flash', source: 'gateway', llm_calls: 1, output_tokens: 30 });
    expect(costUsd(prices, agent.model, agent)).toBeGreaterThan(0);
  });

  it('a body that names its model wins over the URL', () => {
    const text = geminiLine(new TrafficRecorder(null)).replace('"contents":', '"model":"gemini-2.5-pro","contents":');
    expect(usageOfTraffic(text, {})!.agent!.model).toBe('gemini-2.5-pro');
  });
});

describe("the viewer's reading of that call", () => {
  it('shows the model named by the URL, with its cost estimated', () => {
    const call = canonicalizeRow(JSON.parse(geminiLine(new TrafficRecorder(null))) as Record<string, unknown>, 0);
    expect(call.model).toBe('gemini-2.5-flash');
    expect(call.provider).toBe('google');
    expect(call.costUsd).toBeGreaterThan(0);
  });
});
