// The gateway over real HTTP against doubles of the providers' wire formats: tokens in the
// providers' own headers, the real key only upstream, streaming byte for byte, refused paths,
// retries (429 with retry-after, a connection dropped before the answer), a provider that
// keeps refusing, a provider that admits one request at a time, the record and replay.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NO_LIMITS, type GatewayPlan } from '../../../runner/src/config/gateway.js';
import { kindOf } from '../../../runner/src/gateway/api-kinds.js';
import { GAVE_UP_HEADER } from '../../../runner/src/gateway/forward.js';
import { TRAFFIC_FILE, type TrafficLine } from '../../../runner/src/gateway/record.js';
import { replayFrom } from '../../../runner/src/gateway/replay.js';
import { startGateway, type Gateway, type Upstream } from '../../../runner/src/gateway/server.js';
import type { Grant, Role } from '../../../runner/src/gateway/tokens.js';
import { fail, say, startFakeLlm, type FakeLlm } from '../../helpers/fake-llm/index.js';

const KEY = 'sk-real-provider-key-CANARY-0123456789';
const PLAN: Pick<GatewayPlan, 'limits' | 'retryAttempts' | 'retryBudgetSeconds'> = { limits: { default: NO_LIMITS, byKey: {} }, retryAttempts: 5, retryBudgetSeconds: 30 };
const FAST = { baseDelayMs: 20, maxDelayMs: 100 };

const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

function upstream(id: string, provider: string, base: string, key: string | null = KEY): Upstream {
  return { id, provider, spec: kindOf(provider, base)!, base, key };
}

async function gateway(ups: Upstream[], o: Partial<Parameters<typeof startGateway>[0]> = {}): Promise<Gateway> {
  const g = await startGateway({ upstreams: ups, plan: PLAN, prices: null, backoff: FAST, ...o });
  cleanup.push(() => g.close());
  return g;
}

async function fake(o: Parameters<typeof startFakeLlm>[0]): Promise<FakeLlm> {
  const f = await startFakeLlm(o);
  cleanup.push(() => f.close());
  return f;
}

function grant(g: Gateway, upstreamId: string, o: { role?: Role; container?: string; dir?: string | null; recordKey?: string } = {}): string {
  const gr: Grant = { runId: 'r1', container: o.container ?? 'c1', role: o.role ?? 'agent', upstream: upstreamId, dir: o.dir ?? null, scenario: 's1', runIndex: null, recordKey: o.recordKey ?? 's1' };
  return g.tokens.issue(gr);
}

const anthropicBody = (stream: boolean, text = 'hello') => JSON.stringify({ model: 'claude-sonnet-4-20250514', max_tokens: 64, stream, messages: [{ role: 'user', content: text }] });

function post(url: string, token: string | null, body: string, header: 'x-api-key' | 'authorization' | 'x-goog-api-key' = 'x-api-key'): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' };
  if (token) headers[header] = header === 'authorization' ? `Bearer ${token}` : token;
  return fetch(url, { method: 'POST', headers, body });
}

function readRecord(dir: string): TrafficLine[] {
  return readFileSync(join(dir, TRAFFIC_FILE), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as TrafficLine);
}

describe('model gateway: credentials and paths', () => {
  it('swaps the container token for the real key in the provider header; the key never reaches the client', async () => {
    const f = await fake({ format: 'anthropic', fallback: say('hi') });
    const g = await gateway([upstream('anthropic', 'anthropic', f.url)]);
    const token = grant(g, 'anthropic');
    const res = await post(`${g.baseUrl('anthropic')}/v1/messages`, token, anthropicBody(false));
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(JSON.parse(text).content[0].text).toBe('hi');
    expect(f.requests).toHaveLength(1);
    expect(f.requests[0]!.headers['x-api-key']).toBe(KEY);
    expect(f.requests[0]!.headers.authorization).toBeUndefined();
    expect(JSON.stringify(f.requests[0]!.headers)).not.toContain(token);
    expect(text).not.toContain(KEY);
    expect([...res.headers.values()].join(' ')).not.toContain(KEY);
  });

  it('refuses a missing, foreign, revoked or real key, and paths outside the provider API, without calling the provider', async () => {
    const f = await fake({ format: 'anthropic', fallback: say('hi') });
    const o = await fake({ format: 'openai-chat', fallback: say('hi') });
    const g = await gateway([upstream('anthropic', 'anthropic', f.url), upstream('openai', 'openai', o.url)]);
    const url = `${g.baseUrl('anthropic')}/v1/messages`;
    const openaiToken = grant(g, 'openai', { container: 'c2' });
    const mine = grant(g, 'anthropic', { container: 'c3' });
    const cases: Array<[string | null, string]> = [
      [null, url],
      [KEY, url],
      ['g2gw-not-a-token-of-this-run', url],
      [openaiToken, url],
    ];
    for (const [token, u] of cases) {
      const res = await post(u, token, anthropicBody(false));
      expect(res.status, `token ${token?.slice(0, 8)}`).toBe(401);
      expect((await res.json()).error.type).toBe('authentication_error');
    }
    for (const path of ['/v1/complete', '/v1/files', '/../anthropic/v1/messages/../../admin', '/v1/messages/batches']) {
      const res = await post(`${g.baseUrl('anthropic')}${path}`, mine, anthropicBody(false));
      expect(res.status, path).toBe(404);
    }
    const other = await post(`http://127.0.0.1:${g.port}/nowhere/v1/messages`, mine, anthropicBody(false));
    expect(other.status).toBe(404);
    g.tokens.revoke('c3');
    expect((await post(url, mine, anthropicBody(false))).status).toBe(401);
    expect(f.requests).toHaveLength(0);
    expect(o.requests).toHaveLength(0);
    expect(g.stats().refused).toBe(10);
  });

  it('Gemini: the token may come as ?key= or x-goog-api-key; the key goes upstream as x-goog-api-key, never in the query', async () => {
    const f = await fake({ format: 'gemini', fallback: say('hi') });
    const g = await gateway([upstream('google', 'google', f.url)]);
    const token = grant(g, 'google');
    const body = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'x' }] }] });
    const base = g.baseUrl('google');
    expect(base).toMatch(/\/google\/v1beta$/);
    const a = await fetch(`${base}/models/gemini-2.5-flash:streamGenerateContent?alt=sse&key=${token}`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    expect(a.status).toBe(200);
    await a.text();
    const b = await post(`${base}/models/gemini-2.5-flash:generateContent`, token, body, 'x-goog-api-key');
    expect(b.status).toBe(200);
    expect(f.requests.map((r) => r.headers['x-goog-api-key'])).toEqual([KEY, KEY]);
    expect(f.requests[0]!.query).toBe('alt=sse');
  });

  it('OpenAI: Bearer in, Bearer out; chat completions and Responses are forwarded, other paths are not', async () => {
    const chat = await fake({ format: 'openai-chat', fallback: say('hi') });
    const resp = await fake({ format: 'openai-responses', fallback: say('hi') });
    const g = await gateway([upstream('chat', 'openai-compat', chat.url), upstream('resp', 'openai', resp.url)]);
    const t1 = grant(g, 'chat');
    const t2 = grant(g, 'resp', { container: 'c2' });
    const r1 = await post(`${g.baseUrl('chat')}/chat/completions`, t1, JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'x' }] }), 'authorization');
    const r2 = await post(`${g.baseUrl('resp')}/responses`, t2, JSON.stringify({ model: 'm', input: 'x' }), 'authorization');
    expect([r1.status, r2.status]).toEqual([200, 200]);
    expect(chat.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(resp.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect((await post(`${g.baseUrl('chat')}/embeddings`, t1, '{}', 'authorization')).status).toBe(404);
  });
});

describe('model gateway: streaming', () => {
  it('passes a streaming answer through byte for byte, chunk by chunk as it arrives', async () => {
    const parts = ['event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":7,"output_tokens":1}}}\n\n', 'data: {"x":"é – ünïcode"}\n\n', 'event: message_delta\ndata: {"type":"message_delta","usage":{"output_tokens":9}}\n\n'];
    let sentLast = 0;
    const up: Server = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let i = 0;
      const next = () => {
        if (i === parts.length) return res.end();
        if (i === parts.length - 1) sentLast = Date.now();
        res.write(Buffer.from(parts[i++]!, 'utf8'));
        setTimeout(next, 150);
      };
      next();
    });
    await new Promise<void>((r) => up.listen(0, '127.0.0.1', () => r()));
    cleanup.push(() => new Promise((r) => up.close(r)));
    const dir = mkdtempSync(join(tmpdir(), 'gw-stream-'));
    const g = await gateway([upstream('anthropic', 'anthropic', `http://127.0.0.1:${(up.address() as AddressInfo).port}`)]);
    const res = await post(`${g.baseUrl('anthropic')}/v1/messages`, grant(g, 'anthropic', { dir }), anthropicBody(true));
    const reader = res.body!.getReader();
    const chunks: Buffer[] = [];
    let firstAt = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!firstAt) firstAt = Date.now();
      chunks.push(Buffer.from(value));
    }
    expect(Buffer.concat(chunks).equals(Buffer.from(parts.join(''), 'utf8'))).toBe(true);
    expect(firstAt).toBeLessThan(sentLast); // the first event arrived before the provider sent the last
    await g.recorder.flush();
    const [line] = readRecord(dir);
    expect(line!.raw_response).toBe(parts.join(''));
    expect(line!.usage).toEqual({ input_tokens: 7, output_tokens: 9, cache_read_tokens: 0, cache_write_tokens: 0 });
    expect(line!.stream).toBe(true);
  });
});

describe('model gateway: retries and limits', () => {
  it('retries a 429 after its retry-after and a connection dropped before the answer; the client sees one 200', async () => {
    const f = await fake({ format: 'anthropic', script: [fail(429, 1), { text: 'x', drop: 'before-body' }, say('ok')] });
    const dir = mkdtempSync(join(tmpdir(), 'gw-retry-'));
    const g = await gateway([upstream('anthropic', 'anthropic', f.url)]);
    const t0 = Date.now();
    const res = await post(`${g.baseUrl('anthropic')}/v1/messages`, grant(g, 'anthropic', { dir }), anthropicBody(true));
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('ok');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1000); // retry-after: 1 was honoured
    expect(f.requests).toHaveLength(3);
    const s = g.stats();
    expect(s).toMatchObject({ throttled: 1, retried: 2, gave_up: 0 });
    await g.recorder.flush();
    const [line] = readRecord(dir);
    expect(line!.attempt).toBe(3);
    expect(line!.attempts.map((a) => a.status)).toEqual([429, 0, 200]);
  });

  it('under a tokens-per-minute limit, an attempt that got no answer frees its estimate: the retry goes at once', async () => {
    const f = await fake({ format: 'anthropic', script: [{ text: 'x', drop: 'before-body' }, say('ok')] });
    // Room for one request's estimate (body/4 + max_tokens ≈ 100), not two: a retry that found
    // the dropped attempt still counted would wait for the minute to pass.
    const g = await gateway([upstream('anthropic', 'anthropic', f.url)], { plan: { ...PLAN, limits: { default: { ...NO_LIMITS, tokensPerMinute: 150 }, byKey: {} } } });
    const t0 = Date.now();
    const res = await post(`${g.baseUrl('anthropic')}/v1/messages`, grant(g, 'anthropic'), anthropicBody(true));
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('ok');
    expect(f.requests).toHaveLength(2);
    expect(Date.now() - t0).toBeLessThan(30_000);
  });

  // A drop after bytes reached the client (docs/gateway.md, "A drop mid-answer"), per streaming API.
  const MID_STREAM: Array<{ format: 'anthropic' | 'openai-chat'; provider: string; path: string; header: 'x-api-key' | 'authorization'; body: (text: string) => string }> = [
    { format: 'anthropic', provider: 'anthropic', path: '/v1/messages', header: 'x-api-key', body: (t) => anthropicBody(true, t) },
    { format: 'openai-chat', provider: 'openai', path: '/chat/completions', header: 'authorization', body: (t) => JSON.stringify({ model: 'gpt-4.1', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: t }] }) },
  ];
  const LONG = 'a long answer in many words, streamed in several events so that half of them is a real prefix';

  describe.each(MID_STREAM)('a connection dropped mid-stream ($format)', (c) => {
    it('a provider that repeats itself byte for byte: the repeated answer is spliced on, the client gets one whole stream', async () => {
      const whole = await fake({ format: c.format, deterministic: true, script: [say(LONG)] });
      const expected = await (await post(`${c.format === 'anthropic' ? whole.origin : whole.url}${c.path}`, 'k', c.body('q'), c.header)).text();
      const f = await fake({ format: c.format, deterministic: true, script: [{ text: LONG, drop: 'mid-stream' }, say(LONG)] });
      const dir = mkdtempSync(join(tmpdir(), 'gw-splice-'));
      const g = await gateway([upstream('p', c.provider, f.url)]);
      const res = await post(`${g.baseUrl('p')}${c.path}`, grant(g, 'p', { dir }), c.body('q'), c.header);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(expected);
      expect(f.requests).toHaveLength(2);
      expect(g.stats()).toMatchObject({ retried: 1, resumed: 1, broken: 0, gave_up: 0 });
      await g.recorder.flush();
      const [line] = readRecord(dir);
      expect(line!.raw_response).toBe(expected);
      expect(line!.error).toBeUndefined();
      expect(line!.attempts[0]!.error).toMatch(/broke mid-answer after \d+ bytes/);
      const cutAt = Number(/after (\d+) bytes/.exec(line!.attempts[0]!.error!)![1]);
      expect(cutAt).toBeGreaterThan(0);
      expect(cutAt).toBeLessThan(expected.length);
      expect(line!.attempts[1]).toMatchObject({ status: 200, resumed_after: cutAt });
      expect(line!.usage).not.toBeNull(); // read from the whole, spliced stream
    });

    it('a provider whose new answer differs: the client\'s connection is cut where the provider\'s broke, and counted', async () => {
      const f = await fake({ format: c.format, script: [{ text: LONG, drop: 'mid-stream' }, say(LONG)] });
      const dir = mkdtempSync(join(tmpdir(), 'gw-cut-'));
      const g = await gateway([upstream('p', c.provider, f.url)]);
      const res = await post(`${g.baseUrl('p')}${c.path}`, grant(g, 'p', { dir }), c.body('q'), c.header);
      expect(res.status).toBe(200);
      await expect(res.text()).rejects.toThrow();
      expect(f.requests).toHaveLength(2); // asked again once, then gave the answer up
      expect(g.stats()).toMatchObject({ retried: 1, resumed: 0, broken: 1, gave_up: 0 });
      await g.recorder.flush();
      const [line] = readRecord(dir);
      expect(line!.error).toMatch(/broke mid-answer after \d+ bytes, and its answer to the same request again differs from what the client has at byte \d+/);
      expect(line!.attempts.map((a) => a.status)).toEqual([200, 200]);
      // The record holds what the client got: the first answer's bytes up to the drop.
      expect(line!.raw_response.length).toBe(Number(/after (\d+) bytes/.exec(line!.error!)![1]));
    });
  });

  it('a provider that keeps dropping mid-stream: the client\'s connection is cut once the retry budget is spent', async () => {
    const f = await fake({ format: 'anthropic', deterministic: true, fallback: { text: LONG, drop: 'mid-stream' } });
    const g = await gateway([upstream('anthropic', 'anthropic', f.url)], { plan: { ...PLAN, retryAttempts: 3 } });
    const res = await post(`${g.baseUrl('anthropic')}/v1/messages`, grant(g, 'anthropic'), anthropicBody(true, 'q'));
    await expect(res.text()).rejects.toThrow();
    expect(f.requests).toHaveLength(3);
    expect(g.stats()).toMatchObject({ retried: 2, resumed: 0, broken: 1 });
  });

  it('a provider that always refuses: the gateway gives up within its budget with a final answer naming provider and status', async () => {
    const f = await fake({ format: 'anthropic', fallback: { status: 529, message: 'Overloaded' } });
    const g = await gateway([upstream('anthropic', 'anthropic', f.url)]);
    const t0 = Date.now();
    const res = await post(`${g.baseUrl('anthropic')}/v1/messages`, grant(g, 'anthropic'), anthropicBody(false));
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(res.status).toBe(529);
    expect(res.headers.get(GAVE_UP_HEADER)).toBe('gave-up');
    const body = await res.json();
    expect(body.error.message).toMatch(/provider anthropic answered HTTP 529 .* on all 5 attempt/);
    expect(f.requests).toHaveLength(5);
    expect(g.failureOf('c1')).toMatchObject({ provider: 'anthropic', status: 529, role: 'agent' });
    expect(g.stats().gave_up).toBe(1);
  });

  it('six parallel requests to a provider that admits one at a time all succeed: the gateway backs off and sends one at a time', async () => {
    const f = await fake({ format: 'anthropic', admit: { concurrent: 1, retryAfter: 0 }, fallback: say('fine', { delayMs: 300 }) });
    const g = await gateway([upstream('anthropic', 'anthropic', f.url)], { plan: { ...PLAN, retryAttempts: 6 } });
    const t = Array.from({ length: 6 }, (_, i) => grant(g, 'anthropic', { container: `c${i}` }));
    const res = await Promise.all(t.map((tok) => post(`${g.baseUrl('anthropic')}/v1/messages`, tok, anthropicBody(false)).then(async (r) => [r.status, await r.text()] as const)));
    expect(res.map((r) => r[0])).toEqual([200, 200, 200, 200, 200, 200]);
    const s = g.stats();
    expect(s.gave_up).toBe(0);
    expect(s.throttled).toBe(f.refusals());
    // After the first burst the gateway learned the limit: few refusals beyond the first five.
    expect(f.refusals()).toBeLessThan(12);
    expect(s.providers.anthropic!.concurrency_cap).toBeLessThanOrEqual(2);
  });

  it('max_concurrent queues requests instead of sending them: the provider never sees two at once', async () => {
    const f = await fake({ format: 'anthropic', admit: { concurrent: 1 }, fallback: say('fine', { delayMs: 100 }) });
    const g = await gateway([upstream('anthropic', 'anthropic', f.url)], { plan: { ...PLAN, limits: { default: { ...NO_LIMITS, maxConcurrent: 1 }, byKey: {} } } });
    const t = Array.from({ length: 4 }, (_, i) => grant(g, 'anthropic', { container: `c${i}` }));
    const res = await Promise.all(t.map((tok) => post(`${g.baseUrl('anthropic')}/v1/messages`, tok, anthropicBody(false))));
    expect(res.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(f.refusals()).toBe(0);
    expect(g.stats().queued_total).toBe(3);
  });
});

describe('model gateway: record and replay', () => {
  it("records each request with role, seq and the provider's usage, then replays it with the provider gone", async () => {
    const f = await fake({ format: 'anthropic', script: [say('one', { usage: { input: 11, output: 3, cacheRead: 5, cacheWrite: 2 } }), say('two', { usage: { input: 20, output: 4 } })] });
    const run = mkdtempSync(join(tmpdir(), 'gw-record-'));
    const dir = join(run, 'exec', 's1');
    const g = await gateway([upstream('anthropic', 'anthropic', f.url)]);
    const agent = grant(g, 'anthropic', { dir, recordKey: 'exec/s1' });
    const judge = grant(g, 'anthropic', { dir, recordKey: 'exec/s1', role: 'judge' });
    const a1 = await (await post(`${g.baseUrl('anthropic')}/v1/messages`, agent, anthropicBody(true, 'first'))).text();
    const j1 = await (await post(`${g.baseUrl('anthropic')}/v1/messages`, judge, anthropicBody(false, 'judge me'))).text();
    await g.close();
    await f.close();
    const lines = readRecord(dir);
    expect(lines.map((l) => [l.role, l.seq])).toEqual([['agent', 1], ['judge', 1]]);
    expect(lines[0]!.usage).toEqual({ input_tokens: 11 + 5 + 2, output_tokens: 3, cache_read_tokens: 5, cache_write_tokens: 2 });
    expect(lines[1]!.usage).toMatchObject({ input_tokens: 20, output_tokens: 4 });
    expect(lines.every((l) => Math.abs(l.t * 1000 - Date.parse(l.timestamp)) < 1)).toBe(true);
    expect(JSON.stringify(lines)).not.toContain(KEY);

    const replayDir = mkdtempSync(join(tmpdir(), 'gw-replayed-'));
    const r = await gateway([upstream('anthropic', 'anthropic', f.url)], { replay: replayFrom(run) });
    const agent2 = grant(r, 'anthropic', { dir: join(replayDir, 'exec/s1'), recordKey: 'exec/s1' });
    const judge2 = grant(r, 'anthropic', { dir: join(replayDir, 'exec/s1'), recordKey: 'exec/s1', role: 'judge' });
    expect(await (await post(`${r.baseUrl('anthropic')}/v1/messages`, judge2, anthropicBody(false, 'judge me'))).text()).toBe(j1);
    expect(await (await post(`${r.baseUrl('anthropic')}/v1/messages`, agent2, anthropicBody(true, 'first'))).text()).toBe(a1);
    const extra = await post(`${r.baseUrl('anthropic')}/v1/messages`, agent2, anthropicBody(true, 'second'));
    expect(extra.status).toBe(409);
    expect((await extra.json()).error.message).toMatch(/agent request #2 of exec\/s1 has no recorded answer/);
  });

  it("a run's end abandons its requests still being answered: endRun resolves once their lines are in the record, other containers' requests go on", async () => {
    const f = await fake({ format: 'anthropic', fallback: say('late', { delayMs: 1500 }) });
    const dir = mkdtempSync(join(tmpdir(), 'gw-end-'));
    const other = mkdtempSync(join(tmpdir(), 'gw-other-'));
    const g = await gateway([upstream('anthropic', 'anthropic', f.url)]);
    const token = grant(g, 'anthropic', { dir });
    const otherToken = grant(g, 'anthropic', { dir: other, container: 'c2' });
    const pending = post(`${g.baseUrl('anthropic')}/v1/messages`, token, anthropicBody(true, 'slow')).then(
      async (r) => `${r.status} ${await r.text()}`,
      (e: Error) => `cut: ${e.message}`,
    );
    const otherPending = post(`${g.baseUrl('anthropic')}/v1/messages`, otherToken, anthropicBody(false, 'mine')).then(
      (r) => r.status,
      (e: Error) => e.message,
    );
    while (f.requests.length < 2) await new Promise((r) => setTimeout(r, 10));
    g.tokens.revoke('c1');
    const t0 = Date.now();
    await g.endRun('c1');
    // resolved long before the answer's 1.5 s, with the line already written
    expect(Date.now() - t0).toBeLessThan(1000);
    const lines = readRecord(dir);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ role: 'agent', http_status: 0, usage: null, abandoned: true });
    expect(lines[0]!.error).toMatch(/^abandoned: the run ended before the provider's answer did$/);
    expect(await pending).toMatch(/^cut: /);
    expect(await otherPending).toBe(200);
    await g.endRun('c2'); // nothing in flight: resolves at once
    expect(readRecord(other)).toHaveLength(1);
    expect(readRecord(other)[0]!.usage).not.toBeNull();
  });

  it('a request that differs from the recorded one is refused, naming the request and the first field that differs', async () => {
    const f = await fake({ format: 'anthropic', fallback: say('x') });
    const run = mkdtempSync(join(tmpdir(), 'gw-record-'));
    const g = await gateway([upstream('anthropic', 'anthropic', f.url)]);
    await (await post(`${g.baseUrl('anthropic')}/v1/messages`, grant(g, 'anthropic', { dir: join(run, 's1') }), anthropicBody(false, 'as recorded'))).text();
    await g.close();
    const r = await gateway([upstream('anthropic', 'anthropic', f.url)], { replay: replayFrom(run) });
    const res = await post(`${r.baseUrl('anthropic')}/v1/messages`, grant(r, 'anthropic'), anthropicBody(false, 'something else'));
    expect(res.status).toBe(409);
    expect(res.headers.get(GAVE_UP_HEADER)).toBe('replay-mismatch');
    expect((await res.json()).error.message).toBe('replay: agent request #1 of s1 differs from the recorded one at $.messages[0].content (recorded "as recorded", now "something else")');
    expect(r.failureOf('c1')?.status).toBe(409);
  });
});

describe('model gateway: replay matching', () => {
  it('date-times and random ids do not count as differences; anything else does', async () => {
    const { maskVolatile, firstDifference } = await import('../../../runner/src/gateway/replay.js');
    const a = { messages: [{ role: 'system', content: 'It is now 2025-10-09 09:00:03 (UTC).' }, { role: 'tool', content: '{"order_id": "650e09773c0f4f8ea6c85d3123da412a", "total": 49.4}' }] };
    const b = { messages: [{ role: 'system', content: 'It is now 2025-10-09 09:00:02 (UTC).' }, { role: 'tool', content: '{"order_id": "5ae418279f9b410abbd6a9028474c57f", "total": 49.4}' }] };
    expect(firstDifference(maskVolatile(a), maskVolatile(b))).toBeNull();
    const c = { messages: [a.messages[0], { role: 'tool', content: '{"order_id": "650e09773c0f4f8ea6c85d3123da412a", "total": 12.0}' }] };
    expect(firstDifference(maskVolatile(a), maskVolatile(c))).toBe('$.messages[1].content');
  });
});
