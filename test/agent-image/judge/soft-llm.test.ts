// Soft checks end to end: Judge → createJudgeLlm → provider layer → scripted local LLM server.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadScenarioText } from '../../../agent-image/src/scenario/index.js';
import { createJudgeLlm, judgeEventLog, Judge, type CompletedEvent } from '../../../agent-image/src/judge/index.js';
import { fail, say, startFakeLlm, type FakeFormat, type FakeLlm, type FakeScriptItem } from '../../helpers/fake-llm/index.js';
import { GOLDEN_DIR, readEventLines } from './golden.js';
import { agent, scenarioOf, type Ev } from './fixtures.js';

const SCENARIO = 'scenarios/search/search_email_flight_code.json';
const scenario = loadScenarioText(readFileSync(join(GOLDEN_DIR, SCENARIO), 'utf8'), SCENARIO);
const WRONG = readEventLines('cases/search_email_flight_code/wrong_answer_text.events.jsonl');
const ORACLE = readEventLines('cases/search_email_flight_code/oracle.events.jsonl');

let fake: FakeLlm | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const WIRES: Array<{ format: FakeFormat; provider: 'openai-compat' | 'anthropic' }> = [
  { format: 'openai-chat', provider: 'openai-compat' },
  { format: 'anthropic', provider: 'anthropic' },
];

async function judgeWith(format: FakeFormat, provider: 'openai-compat' | 'anthropic', script: FakeScriptItem[], lines = WRONG) {
  fake = await startFakeLlm({ format, script });
  const llm = createJudgeLlm({ provider, model: 'judge-m', apiKey: 'sk-judge-test', baseUrl: fake.url, retry: { baseDelayMs: 5, maxDelayMs: 20 } });
  return judgeEventLog(scenario, lines, { llm });
}

describe.each(WIRES)('soft checks over $format', ({ format, provider }) => {
  it('accept: a [[Success]] verdict passes the reply, with one deterministic call', async () => {
    const v = await judgeWith(format, provider, [say('The reference code is K7QX2M.\nVerdict: [[Success]]')]);
    expect(v.judge_mode).toBe('llm');
    expect([v.success, v.status]).toEqual([true, 'complete']);
    expect(fake!.requests).toHaveLength(1);
    const body = JSON.stringify(fake!.requests[0]!.body);
    expect(body).toContain('content: Your booking code is AR-55120.');
    expect(body).toContain('content: Your booking confirmation code is K7QX2M');
    expect(fake!.requests[0]!.body.temperature).toBe(0);
  });

  it('reject: a [[Failure]] verdict fails the turn and keeps the judge output', async () => {
    const v = await judgeWith(format, provider, [say('Wrong code.\nVerdict: [[Failure]]')]);
    expect([v.success, v.status]).toEqual([false, 'stopped']);
    expect(v.failure_reason).toMatch(
      /^Cannot match AgentUserInterface__send_message_to_user \(Event-AGENT-[0-9a-f-]+\): AGENT-AgentUserInterface\.send_message_to_user-[0-9a-f]{8}: user_message_checker \(agent_args=\{'content': 'Your booking code is AR-55120\.'\}\)$/,
    );
    expect(v.turns[0]!.match_details![0]!.judge_output).toContain('[[Failure]]');
  });

  it('malformed reply (no marker): inconclusive, so the candidate is rejected', async () => {
    const v = await judgeWith(format, provider, [say('Looks about right to me.')]);
    expect(v.success).toBe(false);
    expect(v.failure_reason).toContain('inconclusive (user_message_checker:inconclusive)');
  });

  it('429 then success: retried after the wait, then judged', async () => {
    const v = await judgeWith(format, provider, [fail(429, 0), say('Verdict: [[Success]]')]);
    expect([v.success, v.status]).toEqual([true, 'complete']);
    expect(fake!.requests).toHaveLength(2);
  });

  it('401: a typed provider error, no verdict', async () => {
    const v = await judgeWith(format, provider, [fail(401)]);
    expect(v.success).toBeNull();
    expect(v.status).toBe('error');
    expect(v.error_kind).toBe('provider_error');
    expect(v.error).not.toContain('sk-judge-test');
    expect(fake!.requests).toHaveLength(1);
  });

  it('429 until retries run out: provider_error, never a pass or a crash', async () => {
    const v = await judgeWith(format, provider, Array.from({ length: 13 }, () => fail(429, 0)));
    expect([v.success, v.status, v.error_kind]).toEqual([null, 'error', 'provider_error']);
    expect(fake!.requests).toHaveLength(13); // the first call and 12 retries, as the reference engine
  });

  it('normalised equality skips the LLM entirely', async () => {
    const v = await judgeWith(format, provider, [], ORACLE);
    expect(v.success).toBe(true);
    expect(fake!.requests).toHaveLength(0);
  });
});

describe('soft-check chains and inputs (OpenAI chat wire)', () => {
  const USER = { first_name: 'Ines', last_name: 'Varga', address: 'Kertesz utca 14, Budapest' };
  async function judgeOne(script: FakeScriptItem[], oracle: Ev, agentEvent: CompletedEvent) {
    fake = await startFakeLlm({ format: 'openai-chat', script });
    const llm = createJudgeLlm({ provider: 'openai-compat', model: 'judge-m', apiKey: 'k-test-123456', baseUrl: fake.url });
    const s = scenarioOf([oracle], { start: 1760000400, apps: [{ name: 'Emails', class_name: 'EmailClientV2' }, { name: 'Cabs', class_name: 'CabApp' }] });
    return new Judge(s, { llm, userDetails: USER }).judgeTurn(0, [agentEvent]);
  }
  const messages = (i: number): Array<{ role: string; content: string }> => fake!.requests[i]!.body.messages;
  const email = (content: string) => ({ recipients: ['bob@x.com'], subject: 'Trip', content });

  it('placeholder text fails before any LLM call', async () => {
    const v = await judgeOne([], { id: 'o1', app: 'Emails', fn: 'send_email', args: email('See you at 9. Ines') }, agent('a1', 'EmailClientV2', 'send_email', email('See you at 9. [Your Name]')));
    // only the llm-checked args (subject, content) reach the soft checks
    expect(v.failure_reason).toBe(
      "Cannot match EmailClientV2__send_email (o1): a1: placeholder_checker (agent_args={'subject': 'Trip', 'content': 'See you at 9. [Your Name]'})",
    );
    expect(fake!.requests).toHaveLength(0);
  });

  it('email: signature check then content check, each one call, with the user name and date', async () => {
    const v = await judgeOne(
      [say('Signed by the user. Verdict: [[True]]'), say('Same facts. Verdict: [[Success]]')],
      { id: 'o1', app: 'Emails', fn: 'send_email', args: email('See you at 9. Ines') },
      agent('a1', 'EmailClientV2', 'send_email', email('Meet you at nine! Best, Ines')),
    );
    expect(v.success).toBe(true);
    expect(fake!.requests).toHaveLength(2);
    expect(messages(0)[0]!.content).toContain('sign-off');
    expect(messages(0).at(-1)!.content).toContain("User's name: Ines Varga");
    expect(messages(0).at(-1)!.content).toContain('subject: Trip\ncontent: Meet you at nine! Best, Ines');
    expect(messages(1)[0]!.content).toContain('today is 2025-10-09 Thursday');
  });

  it('cab: "Home" becomes the user address on both sides before the call', async () => {
    const ride = (start: string) => ({ start_location: start, end_location: 'Airport', service_type: 'Default', ride_time: '2025-10-10 08:00:00' });
    const v = await judgeOne([say('Verdict: [[True]]')], { id: 'o1', app: 'Cabs', fn: 'order_ride', args: ride('Home') }, agent('a1', 'CabApp', 'order_ride', ride('my place ')));
    expect(v.success).toBe(true);
    const user = messages(0).at(-1)!.content;
    expect(user).toContain('start_location: Kertesz utca 14, Budapest\nend_location: Airport');
    expect(user).not.toMatch(/Home|my place/);
  });

  it('reply check: the task slot is empty (the reference never extracts a subtask)', async () => {
    const v = await judgeOne([say('Verdict: [[Failure]]')], { id: 'o1', app: 'AgentUserInterface', fn: 'send_message_to_user', args: { content: 'K7QX2M' } }, agent('a1', 'AgentUserInterface', 'send_message_to_user', { content: 'AR-1' }));
    expect(v.success).toBe(false);
    expect(messages(0).at(-1)!.content.startsWith('Task: \n')).toBe(true);
  });
});

describe('engine routing', () => {
  it('provider "openai" with a base URL speaks chat completions, like the reference engine', async () => {
    fake = await startFakeLlm({ format: 'openai-chat', script: [say('Verdict: [[Success]]')] });
    const llm = createJudgeLlm({ provider: 'openai', model: 'judge-m', apiKey: 'k-test-123456', baseUrl: fake.url });
    expect(await llm.complete('sys', 'user')).toBe('Verdict: [[Success]]');
    expect(fake.requests[0]!.path).toMatch(/\/chat\/completions$/);
    expect(fake.requests[0]!.body.messages).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'user' },
    ]);
  });
});
