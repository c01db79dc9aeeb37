// The default agent against the real world daemon over the agent socket: the task arrives
// through the protocol, tool calls become app actions in events.jsonl, the reply ends the turn.
import { readFileSync } from 'node:fs';
import type net from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connectToDaemon } from '../../../../agent-image/src/agents/client.js';
import { DEFAULT_AGENT_OPTIONS, runDefaultAgent, type AgentOptions } from '../../../../agent-image/src/agents/default/index.js';
import { createModel } from '../../../../agent-image/src/llm/index.js';
import { call, fail, say, startFakeLlm, type FakeLlm, type FakeScriptItem } from '../../../helpers/fake-llm/index.js';
import { startWorld, stubBin } from './helpers.js';

const KEY = 'sk-runtime-SECRET-987654';
let fake: FakeLlm | undefined;
let server: net.Server | undefined;
afterEach(async () => {
  await fake?.close();
  server?.close();
  fake = undefined;
  server = undefined;
});

async function play(script: FakeScriptItem[], options: Partial<AgentOptions>, scenario?: URL, env?: Record<string, string>) {
  const w = await startWorld(scenario, env);
  const { dir, stateDir, socketPath, world, tools, replies } = w;
  server = w.server;

  fake = await startFakeLlm({ format: 'anthropic', script });
  const traceFile = join(dir, 'trace.jsonl');
  const llm = createModel({ provider: 'anthropic', model: 'claude-test', apiKey: KEY, baseUrl: fake.url, thinking: 'off', traceFile });
  const conn = await connectToDaemon({ agent: 'default', socketPath, steer: true, connectTimeoutMs: 5000 });
  const outcome = runDefaultAgent(conn, llm, { ...DEFAULT_AGENT_OPTIONS, workdir: dir, ...options });
  const status = await world.finished();
  const result = await outcome;
  conn.close();
  const events = readFileSync(join(stateDir, 'events.jsonl'), 'utf8');
  return { status, result, events, replies, traceFile, tools };
}

describe('default agent over the daemon protocol', () => {
  it('functions mode: the task arrives, the function call is an app action, the reply ends the turn', async () => {
    const { status, result, events, replies, traceFile, tools } = await play(
      [
        call('cabs__get_quotation', { start_location: 'Kertesz utca 14, 1073 Budapest', end_location: 'Liszt Ferenc Airport Terminal 2B', service_type: 'Default' }),
        call('cabs__order_ride', { start_location: 'Kertesz utca 14, 1073 Budapest', end_location: 'Liszt Ferenc Airport Terminal 2B', service_type: 'Default' }),
        say('Booked a Default ride to Terminal 2B - it was the cheapest option.'),
      ],
      { tools: 'functions' },
    );
    expect(replies).toEqual([{ runId: expect.any(String), content: 'Booked a Default ride to Terminal 2B - it was the cheapest option.', state: 'final' }]);
    expect(result.runs).toBe(1);
    expect(['complete', 'stopped']).toContain(status.status);
    expect(result.shutdown?.status).toBe(status.status);
    // The task reached the model, with only the scenario's apps offered as functions.
    const first = fake!.requests[0]!.body;
    expect(JSON.stringify(first.messages)).toContain('Liszt Ferenc Airport Terminal 2B right now and book the cheapest service');
    const offered: string[] = first.tools.map((t: any) => t.name);
    expect(offered).toContain('cabs__order_ride');
    expect(offered).toContain('current_time');
    expect(offered.every((n) => n === 'current_time' || tools.some((cli) => n.startsWith(cli.replace(/-/g, '_') + '__')))).toBe(true);
    // The order is an agent action in the event log, followed by the reply.
    const lines = events.trim().split('\n').map((l) => JSON.parse(l));
    const order = lines.findIndex((l) => l.fn === 'order_ride');
    const reply = lines.findIndex((l) => l.fn === 'send_message_to_user');
    expect(order).toBeGreaterThan(-1);
    expect(reply).toBeGreaterThan(order);
    // One trace line per LLM call.
    expect(readFileSync(traceFile, 'utf8').trim().split('\n')).toHaveLength(3);
  });

  it('shell mode: commands run through bash with the CLIs on PATH', async () => {
    const bin = stubBin({ cabs: { stdout: '{"quotation": 12.5}' } });
    const { replies } = await play([call('shell', { command: 'cabs get-quotation --service-type Default' }), say('It costs 12.5.')], {
      tools: 'shell',
      binDir: bin,
    });
    expect(replies.map((r) => r.content)).toEqual(['It costs 12.5.']);
    expect(JSON.stringify(fake!.requests[1]!.body.messages)).toContain('{\\"quotation\\": 12.5}');
  });

  it('two turns: the clarifying question ends turn 1, the user answer starts run 2 on the same conversation, the judge passes both', async () => {
    const scenario = new URL('../../../fixtures/golden/scenarios/ambiguity/ambig_email_forward_invoice.json', import.meta.url);
    const { status, result, replies } = await play(
      [
        say('I found two invoice emails: Brightlane #4471 and Nordwind INV-2025-118. Which one should I forward to Farid?'),
        call('emails__forward_email', { email_id: '767fbe0459e75320577ff64b088707f9', recipients: ['farid.haddadi@ledgerly.example'], folder_name: 'INBOX' }),
        say('Forwarded the Brightlane invoice #4471 to Farid.'),
      ],
      { tools: 'functions' },
      scenario,
      { GAIA2_JUDGE_FINAL_TURN: '1' },
    );
    expect(result.runs).toBe(2);
    expect(replies.map((r) => r.state)).toEqual(['final', 'final']);
    expect(replies[0]!.runId).not.toBe(replies[1]!.runId);
    // Run 2 continues the conversation: the first task, the question and the answer are all there.
    const messages = JSON.stringify(fake!.requests[1]!.body.messages);
    expect(messages).toContain('Forward the invoice email to my accountant Farid');
    expect(messages).toContain('Which one should I forward to Farid?');
    expect(messages).toContain('The Brightlane one.');
    expect(status).toMatchObject({ status: 'complete', turn: 2, nb_turns: 2 });
    expect(status.judgment?.success).toBe(true);
  });

  it('two turns, wrong action in turn 2: the judge fails the run', async () => {
    const scenario = new URL('../../../fixtures/golden/scenarios/ambiguity/ambig_email_forward_invoice.json', import.meta.url);
    const { status } = await play(
      [
        say('Which invoice: Brightlane #4471 or Nordwind INV-2025-118?'),
        call('emails__send_email', { recipients: ['farid.haddadi@ledgerly.example'], subject: 'Invoice', content: 'See attached.' }),
        say('Sent.'),
      ],
      { tools: 'functions' },
      scenario,
      { GAIA2_JUDGE_FINAL_TURN: '1' },
    );
    expect(status.status).not.toBe('error');
    expect(status.judgment?.success).toBe(false);
  });

  it('steering: a notification that fires mid-run joins the run at the next step, with no extra turn', async () => {
    const scenario = new URL('../../../fixtures/golden/scenarios/time/time_shopping_price_drop.json', import.meta.url);
    const item = '979ebae459727b68d14bf48722b0eb16';
    const { status, result, replies, events } = await play(
      [
        // While the model "thinks", 40 simulated seconds pass (×100) and the price drop fires.
        call('current_time', {}, { delayMs: 1500 }),
        call('shopping__add_to_cart', { item_id: item, quantity: 1 }),
        call('shopping__checkout', {}),
        say('The price dropped to 89.0 and I bought one pair.'),
      ],
      { tools: 'functions', steer: true },
      scenario,
      { GAIA2_JUDGE_FINAL_TURN: '1', GAIA2_TIME_SPEED: '100' },
    );
    expect(result.runs).toBe(1);
    expect(replies).toHaveLength(1);
    const before = JSON.stringify(fake!.requests[0]!.body.messages);
    const after = JSON.stringify(fake!.requests[1]!.body.messages);
    expect(before).not.toContain('[Notification]');
    expect(after).toContain('[Notification]');
    // The agent acted on it after it fired. (At ×100 the judge's time window is missed, so
    // the verdict itself is not what this test is about.)
    const lines = events.trim().split('\n').map((l) => JSON.parse(l));
    const drop = lines.findIndex((l) => l.fn === 'update_item');
    expect(drop).toBeGreaterThan(-1);
    expect(lines.findIndex((l) => l.fn === 'add_to_cart')).toBeGreaterThan(drop);
    expect(lines.findIndex((l) => l.fn === 'checkout')).toBeGreaterThan(drop);
    expect(status).toMatchObject({ turn: 1, nb_turns: 1, last_response: 'The price dropped to 89.0 and I bought one pair.' });
  });

  it('the step limit ends the turn as a judged failure, with the stop reason as the reply', async () => {
    const { status, replies } = await play(
      [call('cabs__get_ride_history', {}), call('cabs__get_ride_history', {}), say('never reached')],
      { tools: 'functions', maxSteps: 2 },
      undefined,
      { GAIA2_JUDGE_FINAL_TURN: '1' },
    );
    expect(replies.map((r) => [r.content, r.state])).toEqual([['[stopped: step limit reached (2 model calls) without a final answer]', 'final']]);
    expect(fake!.requests).toHaveLength(2);
    expect(status.judgment?.success).toBe(false);
  });

  it('a 401 from the provider ends the run as an error reply, never as an answer, with no key in it', async () => {
    const { replies, events, traceFile } = await play([fail(401), say('never sent')], { tools: 'shell', binDir: stubBin({}) });
    expect(replies).toHaveLength(1);
    expect(replies[0]!.state).toBe('error');
    expect(replies[0]!.content).toMatch(/^Error: anthropic API error 401/);
    expect(fake!.requests).toHaveLength(1);
    expect(events).not.toContain(KEY);
    expect(readFileSync(traceFile, 'utf8')).not.toContain(KEY);
  });
});
