// The in-cluster gateway's process (pod-main.ts) as the Deployment runs it, in a real process
// with real HTTP: configuration from its mounted Secret file, tokens registered by the runner
// through the admin API (admin token required), the real key put on forwarded requests, the
// record handed back when a container ends (and its tokens refused from then on), and a replay
// answered from a record the runner handed over, with no provider.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN_HEADER, CONFIG_KEY, type FinishAnswer, type PodGatewayConfig, type SpendAnswer } from '../../../../runner/src/gateway/cluster/protocol.js';
import type { TrafficLine } from '../../../../runner/src/gateway/index.js';
import { NO_LIMITS } from '../../../../runner/src/plan/gateway.js';
import { say, startFakeLlm } from '../../../helpers/fake-llm/index.js';

const root = join(import.meta.dirname, '..', '..', '..', '..');
const KEY = 'sk-pod-main-canary-9f8e7d6c5b';
const ADMIN = 'admin-token-for-this-test-0001';
const procs: ChildProcess[] = [];
afterAll(() => {
  for (const p of procs) p.kill('SIGTERM');
});

/** Starts pod-main.ts with a config file; resolves with its two ports once it says it serves. */
async function startPodGateway(config: PodGatewayConfig): Promise<{ serve: string; admin: string; output: () => string }> {
  const dir = mkdtempSync(join(tmpdir(), 'gw-pod-'));
  writeFileSync(join(dir, CONFIG_KEY), JSON.stringify(config), { mode: 0o400 });
  const p = spawn(process.execPath, ['--import', 'tsx', join(root, 'runner/src/gateway/cluster/pod-main.ts')], {
    env: { ...process.env, GAIA2_GATEWAY_CONFIG_DIR: dir, GAIA2_GATEWAY_PORT: '0', GAIA2_GATEWAY_ADMIN_PORT: '0', GAIA2_GATEWAY_RECORDS: join(dir, 'records') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  procs.push(p);
  let out = '';
  return new Promise((resolve, reject) => {
    const onData = (c: Buffer) => {
      out += c.toString();
      const m = /serving on :(\d+), admin on :(\d+)/.exec(out);
      if (m) resolve({ serve: `http://127.0.0.1:${m[1]}`, admin: `http://127.0.0.1:${m[2]}`, output: () => out });
    };
    p.stdout!.on('data', onData);
    p.stderr!.on('data', onData);
    p.on('exit', (code) => reject(new Error(`pod-main exited ${code}: ${out}`)));
  });
}

const admin = (base: string, method: string, path: string, body?: unknown, token = ADMIN) =>
  fetch(`${base}${path}`, { method, headers: { [ADMIN_HEADER]: token, 'content-type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
const ask = (serve: string, token: string) =>
  fetch(`${serve}/openai-compat/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }) });
const grant = (container: string) => ({ runId: 'r1', container, role: 'agent', upstream: 'openai-compat', scenario: 'search/s1', runIndex: null, recordKey: `search/${container}` });
const config = (base: string, replay: boolean): PodGatewayConfig => ({
  upstreams: [{ id: 'openai-compat', provider: 'openai-compat', base, key: replay ? null : KEY }],
  plan: { limits: { default: NO_LIMITS, byKey: {} }, retryAttempts: 2, retryBudgetSeconds: 10 },
  prices: null,
  replay,
  adminToken: ADMIN,
});

describe('the in-cluster gateway process', () => {
  let record = '';

  it('serves registered tokens with the real key, hands the record back, then refuses the ended container', async () => {
    const llm = await startFakeLlm({ format: 'openai-chat', fallback: say('hello', { usage: { input: 40, output: 3 } }) });
    try {
      const gw = await startPodGateway(config(llm.url, false));
      expect((await admin(gw.admin, 'GET', '/stats', undefined, 'wrong-token-of-same-length-00')).status).toBe(401);
      expect((await admin(gw.admin, 'GET', '/stats', undefined, '')).status).toBe(401);
      const token = `g2gw-${'a'.repeat(32)}`;
      expect((await ask(gw.serve, token)).status).toBe(401); // not registered yet
      expect((await admin(gw.admin, 'POST', '/containers', { tokens: [{ token, grant: grant('s1') }] })).status).toBe(200);
      const r = await ask(gw.serve, token);
      expect(r.status).toBe(200);
      expect(JSON.stringify(await r.json())).toContain('hello');
      expect(llm.requests.map((q) => q.headers.authorization)).toEqual([`Bearer ${KEY}`]);
      const fin = (await (await admin(gw.admin, 'POST', '/containers/finish', { container: 's1' })).json()) as FinishAnswer;
      const lines = fin.record.split('\n').filter(Boolean).map((l) => JSON.parse(l) as TrafficLine);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ role: 'agent', container: 's1', seq: 1, http_status: 200, usage: { input_tokens: 40, output_tokens: 3 } });
      expect(fin.record).not.toContain(KEY);
      expect(fin).toMatchObject({ failure: null, stats: { requests: 1, by_role: { agent: 1 }, refused: 1 } });
      expect((await ask(gw.serve, token)).status).toBe(401);
      expect(gw.output()).not.toContain(KEY);
      record = fin.record;
    } finally {
      await llm.close();
    }
  }, 60_000);

  it('replays from a record handed over with the registration, with no provider', async () => {
    expect(record).not.toBe('');
    const gw = await startPodGateway(config('http://127.0.0.1:9/v1', true));
    const token = `g2gw-${'b'.repeat(32)}`;
    await admin(gw.admin, 'POST', '/containers', { tokens: [{ token, grant: grant('s1') }], replayRecord: record });
    const r = await ask(gw.serve, token);
    expect(r.status).toBe(200);
    expect(JSON.stringify(await r.json())).toContain('hello');
    const again = await ask(gw.serve, token); // a second request was never recorded
    expect(again.status).toBe(409);
    expect(await again.text()).toMatch(/agent request #2 of search\/s1 has no recorded answer/);
  }, 60_000);

  it('with a budget: counts the agent side per container, refuses the call past a cap without the provider, and says so on GET /spend', async () => {
    const llm = await startFakeLlm({ format: 'openai-chat', fallback: say('hello', { usage: { input: 40, output: 3 } }) });
    try {
      const budget = { maxCostUsd: null, maxTokens: 50, totalMaxCostUsd: null, totalMaxTokens: null };
      const gw = await startPodGateway({ ...config(llm.url, false), budget });
      const [a, b] = [`g2gw-${'c'.repeat(32)}`, `g2gw-${'d'.repeat(32)}`];
      await admin(gw.admin, 'POST', '/containers', { tokens: [{ token: a, grant: grant('s1') }, { token: b, grant: grant('s2') }] });
      const none = (await (await admin(gw.admin, 'GET', '/spend')).json()) as SpendAnswer;
      expect(none).toEqual({ run: null, containers: {} });
      expect((await ask(gw.serve, a)).status).toBe(200); // 43 tokens: under 50
      expect((await ask(gw.serve, a)).status).toBe(200); // 86: at the cap now
      const refused = await ask(gw.serve, a);
      expect(refused.status).toBeGreaterThanOrEqual(400);
      expect(await refused.text()).toMatch(/Budget/);
      expect(llm.requests).toHaveLength(2); // the third never reached the provider
      expect((await ask(gw.serve, b)).status).toBe(200); // another container has its own count
      const spent = (await (await admin(gw.admin, 'GET', '/spend')).json()) as SpendAnswer;
      expect(spent).toEqual({ run: null, containers: { s1: { limit: 'max_tokens', cap: 50, spent: 86 } } });
      expect((await admin(gw.admin, 'GET', '/spend', undefined, 'wrong-token-of-same-length-00')).status).toBe(401);
    } finally {
      await llm.close();
    }
  }, 60_000);

  it('without a budget there is no GET /spend', async () => {
    const gw = await startPodGateway(config('http://127.0.0.1:9/v1', false));
    expect((await admin(gw.admin, 'GET', '/spend')).status).toBe(404);
  }, 60_000);
});
