// Agent2Agent on the trace page, in a real headless Chromium: run directories produced by the
// real world daemon (Shopping operated by an app agent on a scripted provider) and, for the
// first, a main agent that is a real AgentSession on a second scripted provider. The app
// agent's conversation shows nested under the main agent's expert_agent tool call, or under
// the expert_agent event when the main agent has no LLM trace (scripted).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentCliSpecs } from '../../../agent-image/src/a2a/index.js';
import { cliSpecs } from '@gaia2/contract/lib/apps';
import { createFunctionTools } from '../../../agent-image/src/agents/default/function-tools.js';
import { AgentSession } from '../../../agent-image/src/agents/default/session.js';
import { createModel } from '../../../agent-image/src/llm/index.js';
import { buildViewer } from '../../../runner/src/viewer/index.js';
import { a2aShoppingWorld, BOTTLE_ITEM } from '../../helpers/a2a-world.js';
import { call, say, startFakeLlm } from '../../helpers/fake-llm/index.js';
import { launchBrowserLazily } from './browser.js';

const TASK = 'Order two black 750ml bottles with code HYDRATE5.';
const REPLY = 'Ordered two black 750ml bottles with HYDRATE5 applied.';
const appAgentScript = () => [call('shopping__add_to_cart', { item_id: BOTTLE_ITEM, quantity: 2 }), call('shopping__checkout', { discount_code: 'HYDRATE5' }), say('task completed')];

let runDir: string;
let browser: Awaited<ReturnType<typeof launchBrowserLazily>>;

function writeResult(dir: string, w: Awaited<ReturnType<typeof a2aShoppingWorld>>): void {
  writeFileSync(join(dir, 'events.jsonl'), w.eventsText());
  writeFileSync(join(dir, 'daemon_status.json'), JSON.stringify(w.world.status));
  writeFileSync(join(dir, 'result.json'), JSON.stringify({ scenario_id: 'exec_shopping_bottle_order', success: true, status: 'pass', split: 'execution', failure_reasons: [], judge_mode: 'hard-only' }));
}

/** The main agent is a real AgentSession whose only Shopping tool is shopping__expert_agent. */
async function llmMainAgentRun(dir: string): Promise<void> {
  const w = await a2aShoppingWorld(appAgentScript(), join(dir, 'app_agents_trace.jsonl'));
  const main = await startFakeLlm({ format: 'anthropic', script: [call('shopping__expert_agent', { task: TASK }), say(REPLY)] });
  try {
    const llm = createModel({ provider: 'anthropic', model: 'main-model', apiKey: 'k', baseUrl: main.url, thinking: 'off', traceFile: join(dir, 'trace.jsonl') });
    const tools = createFunctionTools({
      specs: agentCliSpecs(cliSpecs(), w.world.appAgentClis),
      visible: w.tools,
      run: async (argv) => {
        const r = await w.world.agentCli(argv);
        return { stdout: r.stdout, stderr: r.stderr, exit_code: r.exitCode };
      },
      maxOutputChars: 20_000,
    });
    expect(Object.keys(tools)).toEqual(['shopping__expert_agent']);
    const r = await new AgentSession({ llm, tools, maxSteps: 5, stream: false }).run(TASK, 'You are a test agent.');
    expect(r.stopReason).toBe('replied');
    w.world.agentReply(r.text);
    writeResult(dir, w);
  } finally {
    await main.close();
    await w.fake.close();
  }
}

/** A scripted main agent: no trace.jsonl, only the expert_agent command. */
async function scriptedMainAgentRun(dir: string): Promise<void> {
  const w = await a2aShoppingWorld(appAgentScript(), join(dir, 'app_agents_trace.jsonl'));
  try {
    expect((await w.world.agentCli(['shopping', 'expert-agent', '--task', TASK])).exitCode).toBe(0);
    w.world.agentReply(REPLY);
    writeResult(dir, w);
  } finally {
    await w.fake.close();
  }
}

// Prices for the two scripted models, so that both parts of the agent's cost are known.
const PRICE = { main: { input: 1, output: 2 }, app: { input: 10, output: 20 } };

beforeAll(async () => {
  runDir = mkdtempSync(join(tmpdir(), 'viewer-a2a-'));
  const prices = join(mkdtempSync(join(tmpdir(), 'viewer-a2a-prices-')), 'prices.json');
  writeFileSync(prices, JSON.stringify({ models: { 'main-model': PRICE.main, 'fake-app-agent': PRICE.app } }));
  process.env.GAIA2_PRICES = prices;
  writeFileSync(join(runDir, 'run_config.json'), JSON.stringify({ agent: 'default', a2a_app_prop: 1 }));
  for (const [id, play] of [['execution/llm_main', llmMainAgentRun], ['execution/scripted_main', scriptedMainAgentRun]] as const) {
    const dir = join(runDir, ...id.split('/'));
    mkdirSync(dir, { recursive: true });
    await play(dir);
  }
  await buildViewer(runDir);
  browser = await launchBrowserLazily();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  rmSync(runDir, { recursive: true, force: true });
});

async function open(rel: string, ready = '#timeline > .item'): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.context().newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(pathToFileURL(join(runDir, rel)).href);
  await page.waitForSelector(ready);
  return { page, errors };
}

const nestedTools = (page: Page, host: string): Promise<string[]> =>
  page.$$eval(`${host} details.app-agent .nested .item.tool .meta span:first-of-type`, (n) => n.map((x) => x.textContent ?? ''));

describe('app agents on the trace page', () => {
  it("nests the app agent's conversation under the main agent's expert_agent tool call", async () => {
    const { page, errors } = await open('execution/llm_main/trace.html');
    const host = '#timeline > .item.tool';
    expect(await page.$$eval(`${host} > .meta > span:first-of-type`, (n) => n.map((x) => x.textContent))).toEqual(['shopping__expert_agent']);
    expect(await page.$eval(`${host} details.app-agent > summary`, (n) => n.textContent)).toMatch(/^App agent · Shopping · expert_agent call 1 · 3 LLM call\(s\)/);
    expect(await nestedTools(page, host)).toEqual(['shopping__add_to_cart', 'shopping__checkout']);
    // The app agent's task reached it as a user message; its answer is shown with the call.
    expect(await page.$eval(`${host} details.app-agent .nested`, (n) => n.textContent)).toContain(`Message: ${TASK}`);
    expect(await page.$eval(`${host} details.app-agent > .meta pre`, (n) => n.textContent)).toBe('task completed');
    // Nothing of the app agent leaks into the main timeline's own tool calls.
    expect(await page.$$eval('#timeline > .item.tool', (n) => n.length)).toBe(1);
    expect(errors).toEqual([]);
  });

  it("counts the app agent's calls in the run index with the main agent's", async () => {
    const { page } = await open('index.html', '#scenarios tbody tr');
    expect(await page.$$eval('#scenarios tbody tr', (trs) => trs.length)).toBe(2);
    const calls = await page.evaluate(() => (window as unknown as { PAGE: { rows: Array<{ id: string; llmCalls: number }> } }).PAGE?.rows?.map((r) => [r.id, r.llmCalls]));
    // 2 main-agent calls + 3 app-agent calls; the scripted main agent's run has only the app agent's 3.
    expect(calls).toEqual(expect.arrayContaining([['execution/llm_main', 5], ['execution/scripted_main', 3]]));
  });

  it("shows the app agents' share apart and prices it into the run's cost", async () => {
    const { page } = await open('index.html', '#scenarios tbody tr');
    type Row = { id: string; llmCalls: number; tokensIn: number; tokensOut: number; appAgentLlmCalls: number; appAgentTokensIn: number; appAgentTokensOut: number; costUsd: number | null };
    const rows = await page.evaluate(() => (window as unknown as { PAGE: { rows: Row[] } }).PAGE.rows);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const llm = byId.get('execution/llm_main')!;
    const scripted = byId.get('execution/scripted_main')!;
    for (const r of [llm, scripted]) {
      expect(r.appAgentLlmCalls).toBe(3);
      expect(r.appAgentTokensIn).toBeGreaterThan(0);
      expect(r.appAgentTokensOut).toBeGreaterThan(0);
    }
    const perM = (inT: number, outT: number, p: { input: number; output: number }) => (inT * p.input + outT * p.output) / 1e6;
    const appCost = (r: Row) => perM(r.appAgentTokensIn, r.appAgentTokensOut, PRICE.app);
    // the main agent's tokens are the rest of the agent side
    expect(llm.tokensIn).toBeGreaterThan(llm.appAgentTokensIn);
    expect(llm.costUsd).toBeCloseTo(perM(llm.tokensIn - llm.appAgentTokensIn, llm.tokensOut - llm.appAgentTokensOut, PRICE.main) + appCost(llm), 12);
    // a scripted main agent makes no LLM calls: its run costs what its app agents cost
    expect(scripted.tokensIn).toBe(scripted.appAgentTokensIn);
    expect(scripted.costUsd).toBeCloseTo(appCost(scripted), 12);
    const fmt = (n: number) => n.toLocaleString('en-US');
    const card = await page.$$eval('#counters .card', (cs) => cs.map((c) => `${c.querySelector('.l')?.textContent}: ${c.querySelector('.v')?.textContent}`));
    expect(card.find((c) => c.startsWith('Of which app agents: '))).toBeDefined();
    const trace = await open('execution/llm_main/trace.html');
    expect(await trace.page.$eval('#stats', (n) => n.textContent)).toContain(`of which app agents 3 calls, ${fmt(llm.appAgentTokensIn)} in / ${fmt(llm.appAgentTokensOut)} out`);
  });

  it('in-trace search finds text that only the app agent saw', async () => {
    const { page } = await open('execution/llm_main/trace.html');
    await page.fill('#trace-search', 'add_to_cart');
    await page.waitForFunction(() => document.querySelectorAll('#timeline > .item.hit').length > 0);
    const hits = await page.$$eval('#timeline > .item.hit', (n) => n.map((x) => x.className));
    expect(hits.some((c) => c.includes('tool'))).toBe(true);
  });

  it('nests it under the expert_agent event when the main agent left no LLM trace', async () => {
    const { page, errors } = await open('execution/scripted_main/trace.html');
    const host = '#timeline > .item.ev-action';
    expect(await page.$$eval(`${host} details.app-agent`, (n) => n.map((x) => x.getAttribute('data-app-agent-call')))).toEqual(['1']);
    expect(await page.$eval(`${host}:has(details.app-agent) b`, (n) => n.textContent)).toBe('ShoppingApp.expert_agent');
    expect(await nestedTools(page, host)).toEqual(['shopping__add_to_cart', 'shopping__checkout']);
    expect(errors).toEqual([]);
  });
});
