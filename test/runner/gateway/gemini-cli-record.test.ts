// A Gemini CLI request as the real program sends it (test/fixtures/agent-requests/gemini-cli.json:
// POST …/models/<model>:streamGenerateContent?alt=sse, a body with no `model`) passed through
// the gateway: its record line must name the model from the path and price the call, and the
// run's usage read from that record must carry the model into the report's cost.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NO_LIMITS } from '../../../runner/src/config/gateway.js';
import { kindOf } from '../../../runner/src/gateway/api-kinds.js';
import { TRAFFIC_FILE, type TrafficLine } from '../../../runner/src/gateway/record.js';
import { startGateway } from '../../../runner/src/gateway/server.js';
import { usageTotals } from '../../../runner/src/report/usage.js';
import { costUsd, loadPriceTable } from '../../../runner/src/tokens/index.js';
import { usageOfTraffic } from '../../../runner/src/usage/run-usage.js';
import { say, startFakeLlm } from '../../helpers/fake-llm/index.js';

const fixture = JSON.parse(readFileSync(join(import.meta.dirname, '../../fixtures/agent-requests/gemini-cli.json'), 'utf8')) as { path: string; query: string; user_agent: string; body: Record<string, unknown> };
const prices = loadPriceTable(undefined, {});
const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

describe("the gateway's record of a real Gemini CLI request", () => {
  it('names the model from the URL path and prices the call; the run usage and the report keep the model', async () => {
    expect(fixture.body).not.toHaveProperty('model');
    const llm = await startFakeLlm({ format: 'gemini', fallback: say('done', { usage: { input: 1_000, output: 40, cacheRead: 200 } }) });
    cleanup.push(() => llm.close());
    const g = await startGateway({
      upstreams: [{ id: 'google', provider: 'google', spec: kindOf('google', llm.url)!, base: llm.url, key: 'real-key' }],
      plan: { limits: { default: NO_LIMITS, byKey: {} }, retryAttempts: 1, retryBudgetSeconds: 5 },
      prices,
    });
    cleanup.push(() => g.close());
    const dir = mkdtempSync(join(tmpdir(), 'gw-gemini-'));
    const token = g.tokens.issue({ runId: 'r', container: 'c1', role: 'agent', upstream: 'google', dir, scenario: 's', runIndex: null, recordKey: 's' });
    // The gateway's base for Gemini ends in the API version, as the fixture's path starts with it.
    const url = `${g.baseUrl('google').replace(/\/v1beta$/, '')}${fixture.path}?${fixture.query}`;
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-goog-api-key': token, 'user-agent': fixture.user_agent }, body: JSON.stringify(fixture.body) });
    expect(res.status).toBe(200);
    await res.text();
    await g.close();

    const text = readFileSync(join(dir, TRAFFIC_FILE), 'utf8');
    const line = JSON.parse(text.trim()) as TrafficLine;
    expect(line.url).toContain('/models/gemini-2.5-pro:streamGenerateContent');
    expect(line.model).toBe('gemini-2.5-pro');
    expect(line.usage).toEqual({ input_tokens: 1_200, output_tokens: 40, cache_read_tokens: 200, cache_write_tokens: 0 });
    // Gemini 2.5 Pro: input 1.25, cache read 0.31, output 10 USD per million.
    const expected = (1_000 * 1.25 + 200 * 0.31 + 40 * 10) / 1e6;
    expect(line.cost_usd).toBeCloseTo(expected, 12);
    expect(costUsd(prices, line.model, line.usage!)).toBe(line.cost_usd);

    // Read with no container environment (no MODEL to fall back on), as the orchestrator does.
    const run = usageOfTraffic(text, {})!;
    expect(run.agent).toMatchObject({ model: 'gemini-2.5-pro', source: 'gateway', llm_calls: 1 });
    const report = usageTotals([{ path: dir, key: 's', runIndex: 1, split: null, status: 'pass', result: { scenario_id: 's', success: true, status: 'pass', usage: run } }], prices);
    expect(report.cost.agent).toMatchObject({ priced_runs: 1, unpriced_models: [] });
    expect(report.cost.agent.usd).toBeCloseTo(expected, 12);
  });
});
