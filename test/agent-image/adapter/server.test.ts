// The adapter HTTP contract: /health before and after the agent is ready, /status, the
// token on mutating routes, /notify shapes and errors, /messages and the SSE stream, and the
// runner-only routes (/artifacts, /shutdown).
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createAdapterServer, listen, type AdapterBackend, type AdapterOptions } from '../../../agent-image/src/adapter/index.js';
import type { DaemonStatus } from '../../../agent-image/src/contract/status.js';

interface Fake extends AdapterBackend {
  isConnected: boolean;
  /** Latched like the daemon's: an agent has connected at some point. */
  everConnected: boolean;
  posted: Array<[string, string]>;
  current: DaemonStatus | null;
}

function fakeBackend(): Fake {
  const f: Fake = {
    isConnected: false,
    everConnected: false,
    posted: [],
    current: null,
    status: () => f.current,
    connected: () => f.isConnected,
    hasConnected: () => (f.everConnected ||= f.isConnected),
    info: () => ({ agent: 'fake' }),
    post: (t, k) => {
      f.posted.push([t, k]);
      return `run-${f.posted.length}`;
    },
  };
  return f;
}

const servers: http.Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

async function start(token?: string, extra: Partial<AdapterOptions> = {}) {
  const backend = fakeBackend();
  const { server, buffer } = createAdapterServer({ backend, token, ...extra });
  servers.push(server);
  const port = await listen(server, 0, '127.0.0.1');
  const base = `http://127.0.0.1:${port}`;
  const call = async (method: string, path: string, body?: string, headers: Record<string, string> = {}) => {
    const r = await fetch(base + path, { method, body, headers });
    return { code: r.status, json: (await r.json()) as Record<string, unknown> };
  };
  return { backend, buffer, base, call };
}

describe('adapter HTTP contract', () => {
  it('answers /health before the agent is ready (connected:false), then connected:true', async () => {
    const a = await start();
    let h = await a.call('GET', '/health');
    expect(h.code).toBe(200);
    expect(h.json).toMatchObject({
      ok: true,
      connected: false,
      agent_connected: false,
      agent: 'fake',
      buffer: { size: 0, lastSeq: 0 },
      sseClients: 0,
    });
    a.backend.isConnected = true;
    h = await a.call('GET', '/health');
    expect(h.json).toMatchObject({ ok: true, connected: true, agent_connected: true });
  });

  it('/health keeps connected:true after the agent left (ok is the adapter\'s); /notify then answers 503', async () => {
    const a = await start();
    a.backend.everConnected = true; // connected and left before anyone asked
    const h = await a.call('GET', '/health');
    expect(h.json).toMatchObject({ ok: true, connected: true, agent_connected: false });
    expect(await a.call('POST', '/notify', '{"message":"late"}')).toEqual({
      code: 503,
      json: { ok: false, error: 'Not connected to agent backend' },
    });
    expect(a.backend.posted).toEqual([]);
  });

  it('/status: waiting without a status, the status object otherwise', async () => {
    const a = await start();
    expect((await a.call('GET', '/status')).json).toEqual({ status: 'waiting' });
    a.backend.current = { status: 'running', turn: 1, nb_turns: 2, num_events: 4, sim_time: '2025-10-09 09:00:05' };
    expect((await a.call('GET', '/status')).json).toEqual(a.backend.current);
  });

  it('/notify: {"message"} → {"ok":true,"runId"}; errors as the reference', async () => {
    const a = await start();
    expect((await a.call('POST', '/notify', '{"message":"hi"}')).code).toBe(503);
    a.backend.isConnected = true;
    const ok = await a.call('POST', '/notify', '{"message":"  hello  "}');
    expect(ok).toEqual({ code: 200, json: { ok: true, runId: 'run-1' } });
    expect(a.backend.posted).toEqual([['hello', 'user']]);
    expect(await a.call('POST', '/send_notifications', '{"message":"[Notification] x"}')).toMatchObject({ code: 200 });
    expect(a.backend.posted[1]).toEqual(['[Notification] x', 'notification']);
    expect(await a.call('POST', '/send_user_message', 'not json')).toEqual({ code: 400, json: { ok: false, error: 'Invalid JSON' } });
    expect((await a.call('POST', '/notify', '{"message":" "}')).json.error).toBe('Missing or empty "message" field');
    expect((await a.call('GET', '/nope')).code).toBe(404);
  });

  it('mutating routes need the bearer token when one is set; reads do not', async () => {
    const a = await start('s3cret-token');
    a.backend.isConnected = true;
    expect((await a.call('POST', '/notify', '{"message":"x"}')).code).toBe(401);
    expect((await a.call('POST', '/notify', '{"message":"x"}', { authorization: 'Bearer wrong' })).code).toBe(401);
    expect((await a.call('POST', '/send_notifications', '{"message":"x"}')).code).toBe(401);
    expect(a.backend.posted).toEqual([]);
    const ok = await a.call('POST', '/notify', '{"message":"x"}', { authorization: 'Bearer s3cret-token' });
    expect(ok.code).toBe(200);
    expect((await a.call('GET', '/status')).code).toBe(200);
    expect((await a.call('GET', '/health')).code).toBe(200);
  });

  it('/messages?after= and the SSE stream carry agent replies', async () => {
    const a = await start();
    a.buffer.push({ run_id: 'run-1', state: 'final', message: 'first' });
    const events: string[] = [];
    const sse = await new Promise<http.IncomingMessage>((resolve) => http.get(`${a.base}/events`, resolve));
    expect(sse.headers['content-type']).toBe('text/event-stream');
    sse.setEncoding('utf8');
    sse.on('data', (d: string) => events.push(d));
    await new Promise((r) => setTimeout(r, 50));
    a.buffer.push({ run_id: 'run-2', state: 'final', message: 'second' });
    await new Promise((r) => setTimeout(r, 50));
    sse.destroy();
    const text = events.join('');
    expect(text).toMatch(/^: connected to gaia2-adapter SSE stream/);
    expect(text).toContain('event: chat\ndata: {"seq":1');
    expect(text).toContain('"message":"second"');
    const m = await a.call('GET', '/messages?after=1');
    expect(m.json.lastSeq).toBe(2);
    expect((m.json.messages as Array<{ message: string }>).map((x) => x.message)).toEqual(['second']);
  });

  it('/artifacts and /shutdown are for the runner only: disabled without a token, 401 with a wrong one', async () => {
    let shutdowns = 0;
    const artifacts = () => ({ files: { 'events.jsonl': Buffer.from('{"a":1}\n').toString('base64') }, missing: ['trace.jsonl'], unreadable: [] });
    const open = await start(undefined, { artifacts, onShutdown: () => shutdowns++ });
    expect((await open.call('GET', '/artifacts')).code).toBe(403);
    expect((await open.call('POST', '/shutdown', '{}')).code).toBe(403);

    const a = await start('tok-1', { artifacts, onShutdown: () => shutdowns++ });
    expect((await a.call('GET', '/artifacts')).code).toBe(401);
    expect((await a.call('GET', '/artifacts', undefined, { authorization: 'Bearer tok-2' })).code).toBe(401);
    expect((await a.call('POST', '/shutdown', '{}', { authorization: 'Bearer nope' })).code).toBe(401);
    expect(shutdowns).toBe(0);

    const got = await a.call('GET', '/artifacts', undefined, { authorization: 'Bearer tok-1' });
    expect(got.code).toBe(200);
    expect(Buffer.from((got.json.files as Record<string, string>)['events.jsonl']!, 'base64').toString()).toBe('{"a":1}\n');
    expect(got.json.missing).toEqual(['trace.jsonl']);
    const bye = await a.call('POST', '/shutdown', '{}', { authorization: 'Bearer tok-1' });
    expect(bye).toEqual({ code: 200, json: { ok: true } });
    await new Promise((r) => setTimeout(r, 20));
    expect(shutdowns).toBe(1);
  });

  it('a server without the runner hooks answers 404 on those routes (token or not)', async () => {
    const a = await start('tok-1');
    expect((await a.call('GET', '/artifacts', undefined, { authorization: 'Bearer tok-1' })).code).toBe(404);
    expect((await a.call('POST', '/shutdown', '{}', { authorization: 'Bearer tok-1' })).code).toBe(404);
  });
});
