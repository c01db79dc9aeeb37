// Web-reaching provider tools: each provider's spelling is found, and a sealed gateway refuses
// the request (403, the provider never asked) and records the refusal, unless the run allows it.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NO_LIMITS, type GatewayPlan } from '../../../runner/src/plan/gateway.js';
import { startGateway } from '../../../runner/src/gateway/server.js';
import { kindOf } from '../../../runner/src/gateway/api-kinds.js';
import { providerToolsOf, refusedProviderTools } from '../../../runner/src/gateway/provider-tools.js';
import { say, startFakeLlm } from '../../helpers/fake-llm/index.js';

const closers: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const c of closers.reverse()) await c();
});

describe('providerToolsOf', () => {
  it('names each provider spelling by its capability, and ignores function tools', () => {
    expect(providerToolsOf('anthropic', { tools: [{ type: 'web_search_20250305', name: 'web_search' }, { type: 'web_fetch_20250910' }, { type: 'code_execution_20250825' }, { name: 'get_weather', input_schema: {} }] }).map((f) => f.tool)).toEqual(['web_search', 'web_fetch', 'code_execution']);
    expect(providerToolsOf('openai', { tools: [{ type: 'web_search_preview' }, { type: 'code_interpreter' }, { type: 'function', name: 'f' }] }).map((f) => f.tool)).toEqual(['web_search', 'code_execution']);
    expect(providerToolsOf('openai', { web_search_options: {}, messages: [] })).toEqual([{ tool: 'web_search', as: 'web_search_options' }]);
    expect(providerToolsOf('gemini', { tools: [{ googleSearch: {} }, { google_search_retrieval: {} }, { urlContext: {} }, { code_execution: {} }, { functionDeclarations: [] }] }).map((f) => f.as)).toEqual(['googleSearch', 'google_search_retrieval', 'urlContext', 'code_execution']);
    expect(providerToolsOf('anthropic', { tools: [{ type: 'custom', name: 'web_search_20250305' }] })).toEqual([]);
    expect(providerToolsOf('openai', null)).toEqual([]);
  });

  it('refuses what the policy does not allow, and nothing when the network is open', () => {
    const req = { tools: [{ type: 'web_search' }, { type: 'code_interpreter' }] };
    expect(refusedProviderTools('openai', req, new Set())).toMatch(/web_search \(web_search\), code_interpreter \(code_execution\).*allow_provider_tools = \["web_search", "code_execution"\]/);
    expect(refusedProviderTools('openai', req, new Set(['web_search']))).toMatch(/code_interpreter/);
    expect(refusedProviderTools('openai', req, new Set(['web_search', 'code_execution']))).toBeNull();
    expect(refusedProviderTools('openai', req, 'all')).toBeNull();
  });
});

it('a sealed gateway answers 403 without calling the provider, counts and records the refusal; an allowed tool is forwarded', async () => {
  const provider = await startFakeLlm({ format: 'anthropic', fallback: say('ok') });
  closers.push(() => provider.close());
  const start = async (allow: GatewayPlan['allowProviderTools'] | undefined) => {
    const gw = await startGateway({
      upstreams: [{ id: 'anthropic', provider: 'anthropic', spec: kindOf('anthropic', provider.url)!, base: provider.url, key: 'sk-tools-unit-0123456789' }],
      plan: { limits: { default: NO_LIMITS, byKey: {} }, retryAttempts: 0, retryBudgetSeconds: 1, ...(allow ? { allowProviderTools: allow } : {}) },
      prices: null,
    });
    closers.push(() => gw.close());
    return gw;
  };
  const dir = await mkdtemp(join(tmpdir(), 'gw-tools-'));
  closers.push(() => rm(dir, { recursive: true, force: true }));
  const ask = async (gw: Awaited<ReturnType<typeof start>>, tools: unknown[]) => {
    const t = gw.tokens.issue({ runId: 'r', container: 'c', role: 'agent', upstream: 'anthropic', dir, scenario: 's', runIndex: null, recordKey: 'c' });
    return fetch(`${gw.baseUrl('anthropic')}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'x-api-key': t },
      body: JSON.stringify({ model: 'claude-sonnet-4-20250514', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }], tools }),
    });
  };
  const sealed = await start(undefined);
  const refused = await ask(sealed, [{ type: 'web_search_20250305', name: 'web_search' }]);
  expect(refused.status).toBe(403);
  expect(((await refused.json()) as { error: { message: string } }).error.message).toContain('web_search_20250305 (web_search)');
  expect(provider.requests).toHaveLength(0);
  expect(sealed.stats()).toMatchObject({ refused: 1, requests: 1 });
  expect((await ask(sealed, [{ name: 'lookup', input_schema: { type: 'object' } }])).status).toBe(200);
  await sealed.close();
  const lines = await readFile(join(dir, 'model_traffic.jsonl'), 'utf8');
  const first = JSON.parse(lines.trim().split('\n')[0]!) as { http_status: number; error?: string };
  expect(first.http_status).toBe(403);
  expect(first.error).toContain('sealed');
  const allowing = await start(['web_search']);
  expect((await ask(allowing, [{ type: 'web_search_20250305', name: 'web_search' }])).status).toBe(200);
  expect(provider.requests).toHaveLength(2);
});
