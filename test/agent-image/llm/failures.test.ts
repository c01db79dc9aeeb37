import { generateText } from 'ai';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { completeText, createModel, ProviderError } from '../../../agent-image/src/llm/index.js';
import { fail, say, startFakeLlm, type FakeFormat, type FakeLlm } from '../../helpers/fake-llm/index.js';
import { readTrace, SECRET, tempTraceFile } from './helpers.js';

let fake: FakeLlm | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const FAST_RETRY = { baseDelayMs: 10, maxDelayMs: 50 };

async function modelFor(format: FakeFormat, provider: 'anthropic' | 'openai' | 'openai-compat' | 'google', script: Parameters<typeof startFakeLlm>[0]['script'], retry = {}) {
  fake = await startFakeLlm({ format, script });
  const traceFile = tempTraceFile();
  const llm = createModel({ provider, model: 'm', apiKey: SECRET, baseUrl: fake.url, thinking: 'off', traceFile, retry: { ...FAST_RETRY, ...retry } });
  return { llm, traceFile };
}

async function run(llm: ReturnType<typeof createModel>): Promise<string> {
  try {
    return (await generateText({ model: llm.model, ...llm.callOptions, prompt: 'hello' })).text;
  } finally {
    await llm.trace.flush();
  }
}

async function caught(p: Promise<unknown>, toError: (e: unknown) => ProviderError): Promise<ProviderError> {
  try {
    await p;
  } catch (e) {
    return toError(e);
  }
  throw new Error('expected the call to fail');
}

describe('retries', () => {
  it('429 with retry-after is retried after the wait, and each attempt is its own trace line', async () => {
    const { llm, traceFile } = await modelFor('anthropic', 'anthropic', [fail(429, 1), say('after the wait')]);
    const started = Date.now();
    expect(await run(llm)).toBe('after the wait');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    const lines = readTrace(traceFile);
    expect(lines.map((l) => [l.seq, l.http_status, l.attempt])).toEqual([
      [1, 429, 1],
      [2, 200, 2],
    ]);
    expect(lines[0].raw_response).toContain('rate_limit_error');
    expect(lines[0].request).toEqual(lines[1].request);
  });

  it('5xx is retried with backoff then succeeds (OpenAI responses)', async () => {
    const { llm, traceFile } = await modelFor('openai-responses', 'openai', [fail(500), fail(503), say('third time')]);
    expect(await run(llm)).toBe('third time');
    expect(readTrace(traceFile).map((l) => l.http_status)).toEqual([500, 503, 200]);
  });

  it('429 beyond the retry budget is a typed rate_limit provider error', async () => {
    const { llm, traceFile } = await modelFor('openai-chat', 'openai-compat', [fail(429, 0), fail(429, 0), fail(429, 0)], { maxRetries: 2 });
    const err = await caught(run(llm), llm.toError);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.kind).toBe('provider_error');
    expect(err.reason).toBe('rate_limit');
    expect(err.status).toBe(429);
    expect(readTrace(traceFile)).toHaveLength(3);
  });

  it('a retry-after longer than allowed is not waited for', async () => {
    const { llm } = await modelFor('gemini', 'google', [fail(429, 3600), say('never')], { maxRetryAfterMs: 1000 });
    const started = Date.now();
    const err = await caught(run(llm), llm.toError);
    expect(err.reason).toBe('rate_limit');
    expect(Date.now() - started).toBeLessThan(5000);
    expect(fake!.requests).toHaveLength(1);
  });

  it('an unreachable endpoint is a network provider error after retries', async () => {
    const llm = createModel({
      provider: 'openai-compat',
      model: 'm',
      baseUrl: 'http://127.0.0.1:1/v1',
      thinking: 'off',
      traceFile: tempTraceFile(),
      retry: { ...FAST_RETRY, maxRetries: 1 },
    });
    const err = await caught(run(llm), llm.toError);
    expect(err.reason).toBe('network');
    expect(err.status).toBe(0);
    const lines = readTrace(llm.trace.file!);
    expect(lines.map((l) => l.http_status)).toEqual([0, 0]);
    expect(JSON.parse(lines[0].raw_response).type).toBe('fetch_error');
  });
});

describe('auth failures and secrets', () => {
  for (const [format, provider] of [
    ['anthropic', 'anthropic'],
    ['openai-responses', 'openai'],
    ['openai-chat', 'openai-compat'],
    ['gemini', 'google'],
  ] as const) {
    it(`${provider}: 401 is an immediate provider_error (no retry) whose message has no key`, async () => {
      const { llm, traceFile } = await modelFor(format, provider, [
        { status: 401, message: `invalid x-api-key ${SECRET}` },
        say('unreachable'),
      ]);
      const err = await caught(run(llm), llm.toError);
      expect(err.kind).toBe('provider_error');
      expect(err.reason).toBe('auth');
      expect(err.status).toBe(401);
      expect(err.message).toContain('invalid x-api-key');
      expect(err.message).not.toContain(SECRET);
      expect(fake!.requests).toHaveLength(1);
      const trace = readFileSync(traceFile, 'utf8');
      expect(trace).toContain('[REDACTED]');
      expect(trace).not.toContain(SECRET);
    });
  }

  it('403 is auth too; a context-length 400 is recognised', async () => {
    const { llm } = await modelFor('openai-chat', 'openai-compat', [
      { status: 403 },
      { status: 400, message: "This model's maximum context length is 8192 tokens" },
    ]);
    expect((await caught(run(llm), llm.toError)).reason).toBe('auth');
    const second = await caught(run(llm), llm.toError);
    expect(second.reason).toBe('context_length');
    expect(second.status).toBe(400);
  });

  it('the key never reaches the trace, even when the conversation contains it; headers are not recorded', async () => {
    const { llm, traceFile } = await modelFor('openai-chat', 'openai-compat', [say(`your key is ${SECRET}`)]);
    const text = (await generateText({ model: llm.model, ...llm.callOptions, prompt: `echo ${SECRET}` })).text;
    await llm.trace.flush();
    expect(text).toContain(SECRET); // the agent itself sees the real answer
    const raw = readFileSync(traceFile, 'utf8');
    expect(raw).not.toContain(SECRET);
    const [line] = readTrace(traceFile);
    expect(line.headers).toBeUndefined();
    expect(JSON.stringify(line.request)).toContain('echo [REDACTED]');
    expect(fake!.requests[0]!.headers.authorization).toBe(`Bearer ${SECRET}`);
  });
});

describe('completeText', () => {
  it('sends system and user with temperature 0 and returns the text', async () => {
    fake = await startFakeLlm({ format: 'openai-chat', script: [say('[[True]]')] });
    const llm = createModel({ provider: 'openai-compat', model: 'judge-m', baseUrl: fake.url, thinking: 'off' });
    expect(await completeText(llm, 'You compare things.', 'Is A like B?')).toBe('[[True]]');
    const body = fake.requests[0]!.body;
    expect(body.temperature).toBe(0);
    expect(body.messages).toEqual([
      { role: 'system', content: 'You compare things.' },
      { role: 'user', content: 'Is A like B?' },
    ]);
  });

  it('throws a ProviderError on failure', async () => {
    fake = await startFakeLlm({ format: 'anthropic', script: [fail(401)] });
    const llm = createModel({ provider: 'anthropic', model: 'j', apiKey: SECRET, baseUrl: fake.url, thinking: 'off' });
    await expect(completeText(llm, 's', 'u')).rejects.toMatchObject({ kind: 'provider_error', reason: 'auth', status: 401 });
  });
});
