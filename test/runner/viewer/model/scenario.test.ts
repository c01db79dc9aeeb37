// The viewer's numbers are result.json's usage (runner/src/viewer/model/scenario.ts reads it
// through report/usage.ts, as the report does), not a count of its own: a run whose recorded
// usage differs from what its trace file holds (a gateway's record, cache reads, app agents,
// a judge) shows the recorded numbers on the index page and in the report alike.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunUsage } from '@gaia2/contract';
import { costUsd, defaultPriceTable } from '../../../../runner/src/tokens/index.js';
import { dirReport } from '../../../../runner/src/report/index.js';
import { buildViewer } from '../../../../runner/src/viewer/index.js';
import { writeRun } from '../synthetic.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'viewer-usage-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

// As usage/run-usage.ts writes it (shape of test/fixtures/usage/real-results.json), with
// numbers the synthetic trace (3 calls, 3300 in / 150 out) does not hold.
const agent = { model: 'claude-sonnet-4-5', source: 'gateway' as const, llm_calls: 4, input_tokens: 4000, output_tokens: 200, cache_read_tokens: 2000, cache_write_tokens: 300 };
const appAgents = { model: 'gpt-4o', source: 'trace' as const, llm_calls: 2, input_tokens: 500, output_tokens: 20, cache_read_tokens: 0, cache_write_tokens: 0 };
const judge = { model: 'gpt-4o-mini', source: 'trace' as const, llm_calls: 1, input_tokens: 700, output_tokens: 30, cache_read_tokens: 0, cache_write_tokens: 0 };
const USAGE: RunUsage = { input_tokens: 5200, output_tokens: 250, cache_read_tokens: 2000, cache_write_tokens: 300, llm_calls: 7, agent, app_agents: appAgents, judge };

function pageData(file: string): any {
  const m = /<script type="application\/json" id="page-data">([\s\S]*?)<\/script>/.exec(readFileSync(file, 'utf8'));
  return JSON.parse(m![1]!);
}

function withUsage(id: string, usage: RunUsage): void {
  const file = join(dir, ...id.split('/'), 'result.json');
  writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), usage }));
}

describe('usage shown by the viewer and the report', () => {
  it("is result.json's, role by role, priced alike", async () => {
    writeRun(dir, [{ id: 'search/sc_1', split: 'search', status: 'pass' }, { id: 'search/sc_2', split: 'search', status: 'running' }]);
    withUsage('search/sc_1', USAGE);
    await buildViewer(dir);
    const rows = pageData(join(dir, 'index.html')).rows as any[];
    const row = rows.find((r) => r.id === 'search/sc_1');
    expect(row).toMatchObject({ llmCalls: 6, tokensIn: 4500, tokensOut: 220, appAgentLlmCalls: 2, appAgentTokensIn: 500, appAgentTokensOut: 20, judgeTokensIn: 700, judgeTokensOut: 30 });
    const prices = defaultPriceTable();
    const cost = costUsd(prices, agent.model, agent)! + costUsd(prices, appAgents.model, appAgents)! + costUsd(prices, judge.model, judge)!;
    expect(row.costUsd).toBeCloseTo(cost, 12);

    const report = dirReport(dir);
    expect(report.overall.usage.agent).toMatchObject({ input: 4000, output: 200, cache_read: 2000, cache_write: 300, llm_calls: 4 });
    expect(report.overall.usage.app_agents).toMatchObject({ input: 500, llm_calls: 2 });
    expect(report.overall.usage.judge).toMatchObject({ input: 700, llm_calls: 1 });
    expect(report.overall.usage.cost.total_usd).toBeCloseTo(row.costUsd, 12);

    // A run still going has no result.json usage yet: the viewer counts its trace.
    expect(rows.find((r) => r.id === 'search/sc_2')).toMatchObject({ llmCalls: 3, tokensIn: 3300, tokensOut: 150 });
  });

  it('a result from before the roles were split holds the agent totals at the top; its model prices them', async () => {
    writeRun(dir, [{ id: 'search/sc_1', split: 'search', status: 'pass' }]);
    const file = join(dir, 'search', 'sc_1', 'result.json');
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), model: 'gpt-4o', usage: { input_tokens: 900, output_tokens: 90 } }));
    await buildViewer(dir);
    const row = (pageData(join(dir, 'index.html')).rows as any[])[0];
    expect(row).toMatchObject({ tokensIn: 900, tokensOut: 90, llmCalls: 3 });
    expect(row.costUsd).toBeCloseTo(costUsd(defaultPriceTable(), 'gpt-4o', { input_tokens: 900, output_tokens: 90 })!, 12);
    expect(dirReport(dir).overall.usage.agent).toMatchObject({ input: 900, output: 90 });
  });
});

describe('who played, as the run page names it', () => {
  it('is the leaderboard\'s identity (report/agent-identity.ts): a recorded agent with its version, a reference image\'s own agent', async () => {
    writeRun(dir, [{ id: 'search/sc_1', split: 'search', status: 'pass' }], { agent: { name: 'claude-code', version: '2.1.332' } });
    await buildViewer(dir);
    expect(pageData(join(dir, 'index.html')).subtitle).toContain('claude-code 2.1.332');
    rmSync(dir, { recursive: true, force: true });
    writeRun(dir, [{ id: 'search/sc_1', split: 'search', status: 'pass' }], { agent: { name: 'default', version: '0.1.0' }, image: 'ghcr.io/meta/gaia2-oc:latest' });
    await buildViewer(dir);
    const subtitle = pageData(join(dir, 'index.html')).subtitle as string;
    expect(subtitle).toContain('openclaw');
    expect(subtitle).not.toContain('default');
  });
});
