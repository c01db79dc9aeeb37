import { afterEach, describe, expect, it } from 'vitest';
import { AgentSession, buildSystemPrompt, createFunctionTools, createShellTool, type StepInfo } from '../../../../agent-image/src/agents/default/index.js';
import { cliSpecs } from '../../../../agent-image/src/apps/index.js';
import { createModel } from '../../../../agent-image/src/llm/index.js';
import { call, fail, say, startFakeLlm, type FakeFormat, type FakeLlm, type FakeScriptItem } from '../../../helpers/fake-llm/index.js';
import { inProcessApps, stubBin } from './helpers.js';

let fake: FakeLlm | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const SYSTEM = buildSystemPrompt({ apps: ['contacts'], mode: 'shell', simTime: '2024-10-15 07:00:00' });

async function shellSession(format: FakeFormat, script: FakeScriptItem[], extra: { maxSteps?: number; stream?: boolean } = {}) {
  fake = await startFakeLlm({ format, script });
  const provider = format === 'anthropic' ? 'anthropic' : format === 'gemini' ? 'google' : format === 'openai-responses' ? 'openai' : 'openai-compat';
  const llm = createModel({ provider, model: 'm', apiKey: 'key-123456', baseUrl: fake.url, thinking: 'off', retry: { baseDelayMs: 5, maxDelayMs: 10 } });
  const tools = { shell: createShellTool({ binDir: stubBin({ contacts: {} }), cwd: '/tmp', timeoutMs: 5000, maxOutputChars: 4000 }) };
  return new AgentSession({ llm, tools, maxSteps: extra.maxSteps ?? 10, stream: extra.stream ?? false });
}

/** All text the model was sent in request i, for loose assertions across formats. */
const sent = (i: number) => JSON.stringify(fake!.requests[i]!.body);

describe('AgentSession (shell mode)', () => {
  for (const format of ['anthropic', 'openai-chat', 'openai-responses', 'gemini'] as const) {
    for (const stream of [false, true]) {
      it(`${format}${stream ? ' streaming' : ''}: runs the scripted commands, feeds outputs back, ends on the text answer`, async () => {
        const session = await shellSession(
          format,
          [call('shell', { command: 'contacts search-contacts --query Bob' }), call('shell', { command: 'contacts get-contacts' }), say('Bob is in your contacts.')],
          { stream },
        );
        const steps: number[] = [];
        const r = await session.run('Is Bob in my contacts?', SYSTEM, { onStep: (s) => steps.push(s.step) });
        expect(r).toMatchObject({ text: 'Bob is in your contacts.', stopReason: 'replied', steps: 3 });
        expect(steps).toEqual([1, 2, 3]);
        expect(fake!.requests).toHaveLength(3);
        expect(sent(0)).toContain('Is Bob in my contacts?');
        expect(sent(0)).toContain('2024-10-15 07:00:00');
        expect(sent(1)).toContain('search-contacts --query Bob');
        expect(sent(2)).toContain('get-contacts');
      });
    }
  }

  it('keeps the conversation across runs (a later turn sees the earlier one)', async () => {
    const session = await shellSession('openai-chat', [say('First answer.'), call('shell', { command: 'contacts get-contacts' }), say('Second answer.')]);
    expect((await session.run('first task', SYSTEM)).text).toBe('First answer.');
    expect((await session.run('[Notification] contacts: something changed', SYSTEM)).text).toBe('Second answer.');
    const messages = fake!.requests[1]!.body.messages.map((m: any) => [m.role, m.content]);
    expect(messages).toEqual([
      ['system', SYSTEM],
      ['user', 'first task'],
      ['assistant', 'First answer.'],
      ['user', '[Notification] contacts: something changed'],
    ]);
  });

  it('anthropic: the system prompt and the latest message are cache breakpoints; the history keeps none', async () => {
    const session = await shellSession('anthropic', [
      call('shell', { command: 'contacts get-contacts' }, { usage: { input: 30, output: 5 } }),
      say('ok', { usage: { input: 20, output: 4, cacheRead: 900 } }),
    ]);
    const steps: StepInfo[] = [];
    await session.run('list my contacts', SYSTEM, { onStep: (s) => steps.push(s) });
    // Cached tokens count as input, and are reported apart too.
    expect(steps.map((s) => [s.inputTokens, s.cacheReadTokens, s.outputTokens])).toEqual([
      [30, 0, 5],
      [920, 900, 4],
    ]);
    for (const req of fake!.requests) {
      expect(req.body.system).toEqual([{ type: 'text', text: SYSTEM, cache_control: { type: 'ephemeral' } }]);
      const marked = req.body.messages.flatMap((m: any) => m.content.filter((c: any) => c.cache_control));
      expect(marked).toHaveLength(1);
      expect(req.body.messages.at(-1).content.at(-1).cache_control).toEqual({ type: 'ephemeral' });
    }
    expect(session.history.every((m) => m.providerOptions === undefined)).toBe(true);
  });

  it('adds steered messages between steps, and a late one keeps the run going', async () => {
    const session = await shellSession('anthropic', [call('shell', { command: 'contacts get-contacts' }), say('Done, and noted the email.'), say('Handled the late message too.')]);
    const inbox: string[][] = [[], ['[Notification] emails: New email received'], ['user: also call Bob']];
    const r = await session.run('list my contacts', SYSTEM, { drainInbox: () => inbox.shift() ?? [] });
    expect(r).toMatchObject({ text: 'Handled the late message too.', stopReason: 'replied', steps: 3 });
    expect(sent(1)).toContain('[Notification] emails: New email received');
    expect(sent(0)).not.toContain('New email received');
    expect(sent(2)).toContain('user: also call Bob');
  });

  it('stops at the step limit with a clear reason', async () => {
    const session = await shellSession('openai-chat', [call('shell', { command: 'true' }), call('shell', { command: 'true' }), say('never')], { maxSteps: 2 });
    const r = await session.run('loop', SYSTEM);
    expect(r).toMatchObject({ stopReason: 'step_limit', steps: 2, text: '' });
    expect(fake!.requests).toHaveLength(2);
  });

  it('a provider failure ends the run as provider_error, not as an answer', async () => {
    const session = await shellSession('openai-responses', [call('shell', { command: 'true' }), fail(401)]);
    const r = await session.run('task', SYSTEM);
    expect(r.stopReason).toBe('provider_error');
    expect(r.text).toBe('');
    expect(r.error).toMatchObject({ kind: 'provider_error', reason: 'auth', status: 401 });
  });

  it('on a context-length error, old tool outputs are dropped and the call is tried again once', async () => {
    const session = await shellSession('openai-chat', [
      call('shell', { command: 'seq 1 300' }),
      call('shell', { command: 'true' }),
      call('shell', { command: 'true' }),
      call('shell', { command: 'true' }),
      call('shell', { command: 'true' }),
      { status: 400, message: 'maximum context length exceeded' },
      say('fits now'),
      { status: 400, message: 'prompt is too long' },
      { status: 400, message: 'prompt is too long' },
    ]);
    const r = await session.run('task', SYSTEM);
    expect(r).toMatchObject({ stopReason: 'replied', text: 'fits now' });
    expect(sent(5)).toContain('299\\n300');
    expect(sent(6)).not.toContain('299\\n300');
    expect(sent(6)).toContain('[output removed to fit the context window]');
    const again = await session.run('more', SYSTEM);
    // Compacting is tried once per run; if it is still too long the run stops with that reason.
    expect(again.stopReason).toBe('context_length');
    expect(again.error?.status).toBe(400);
    expect(fake!.remaining()).toBe(0);
  });
});

describe('AgentSession (functions mode, real apps in-process)', () => {
  it('a call to an unknown function or with bad arguments goes back to the model as an error, and the run goes on', async () => {
    const apps = await inProcessApps();
    fake = await startFakeLlm({
      format: 'openai-chat',
      script: [call('contacts__teleport', {}), call('contacts__get_contact', { id: 3 }), say('Gave up politely.')],
    });
    const llm = createModel({ provider: 'openai-compat', model: 'm', baseUrl: fake.url, thinking: 'off' });
    const tools = createFunctionTools({ specs: cliSpecs(), visible: ['contacts'], run: apps.run, maxOutputChars: 50_000 });
    const session = new AgentSession({ llm, tools, maxSteps: 5, stream: false });
    const r = await session.run('find contact 3', SYSTEM);
    expect(r).toMatchObject({ stopReason: 'replied', text: 'Gave up politely.', steps: 3 });
    const toolMessages = (i: number) => fake!.requests[i]!.body.messages.filter((m: any) => m.role === 'tool').map((m: any) => m.content);
    expect(toolMessages(1).join(' ')).toMatch(/contacts__teleport/);
    expect(toolMessages(2).at(-1)).toBe('Error: unknown parameter(s) for contacts__get_contact: id');
  });

  it('calls app commands as functions and answers from their output', async () => {
    const apps = await inProcessApps();
    fake = await startFakeLlm({
      format: 'openai-chat',
      script: [call('contacts__get_current_user_details', {}), say('You are the user.')],
    });
    const llm = createModel({ provider: 'openai-compat', model: 'm', baseUrl: fake.url, thinking: 'off' });
    const tools = createFunctionTools({ specs: cliSpecs(), visible: ['contacts', 'cabs'], run: apps.run, maxOutputChars: 50_000 });
    const session = new AgentSession({ llm, tools, maxSteps: 5, stream: false });
    const r = await session.run('who am I?', buildSystemPrompt({ apps: ['contacts', 'cabs'], mode: 'functions', simTime: '2024-10-15 07:00:00' }), {});
    expect(r).toMatchObject({ stopReason: 'replied', text: 'You are the user.' });
    const offered = fake.requests[0]!.body.tools.map((t: any) => t.function.name);
    expect(offered).toContain('cabs__order_ride');
    expect(offered).not.toContain('shell');
    const toolMessage = fake.requests[1]!.body.messages.find((m: any) => m.role === 'tool');
    expect(JSON.parse(toolMessage.content)).toHaveProperty('first_name');
  });
});
