// OpenClaw's configuration as the bridge writes it (runner/src/agents/openclaw/layer/lib/
// openclaw-config.mjs): the reference's provider definitions and limits, its other values, in
// the keys of the release that runs, and the key by reference only.
import { describe, expect, it } from 'vitest';
import { openclaw, OPENCLAW_REFERENCE_VERSION } from '../../../runner/src/agents/openclaw.js';
// @ts-expect-error a plain .mjs of the layer, no types
import * as cfg from '../../../runner/src/agents/openclaw/layer/lib/openclaw-config.mjs';

const setup = (env: Record<string, string>) => cfg.providerSetup({ MODEL: 'm-1', API_KEY: 'sk-oc-test', ...env });
const config = (s: unknown, version: string, extra: Record<string, unknown> = {}) =>
  cfg.openclawConfig(s, { version, port: 41000, token: 'tok', hooksToken: 'hooks', workspace: '/home/agent', now: '2025-10-09T09:00:00.000Z', ...extra });

describe('openclaw adapter', () => {
  it("is kept up by its layer's serve program, newest release by default, the queue mode an option", () => {
    expect(openclaw.layerDir).toBe('runner/src/agents/openclaw/layer');
    expect(openclaw.launcher).toBeUndefined();
    expect(openclaw.package.version).toBe('2026.9.6');
    expect(OPENCLAW_REFERENCE_VERSION).toBe(cfg.REFERENCE.version);
    expect(openclaw.options?.queue_mode?.default).toBe('steer');
  });
});

describe('providers: the reference definitions', () => {
  it.each([
    ['anthropic', 'http://gw:1/v1', 'anthropic-messages', 'http://gw:1', 200_000, 64_000],
    ['openai', 'http://gw:1/v1', 'openai-responses', 'http://gw:1/v1', 272_000, 128_000],
    ['google', 'http://gw:1/v1beta/', 'google-generative-ai', 'http://gw:1/v1beta', 1_048_576, 65_536],
    ['gemini', 'http://gw:1/v1beta', 'google-generative-ai', 'http://gw:1/v1beta', 1_048_576, 65_536],
    ['openai-compat', 'http://vllm:8000/v1', 'openai-completions', 'http://vllm:8000/v1', 262_144, 65_535],
    ['openrouter', 'http://gw:1/v1', 'openai-completions', 'http://gw:1/v1', 262_144, 65_535],
    ['openrouter', '', 'openai-completions', 'https://openrouter.ai/api/v1', 262_144, 65_535],
  ])('PROVIDER=%s with BASE_URL "%s": a %s provider of its own id at %s, context %i, max tokens %i', (provider, base, api, baseUrl, contextWindow, maxTokens) => {
    const s = setup({ PROVIDER: provider, ...(base ? { BASE_URL: base } : {}) });
    const id = provider === 'gemini' ? 'google' : provider;
    expect(s.ref).toBe(`${id}/m-1`);
    expect(s.custom).toMatchObject({ api, baseUrl, apiKey: '${GAIA2_OPENCLAW_KEY}', models: [{ id: 'm-1', reasoning: true, input: ['text', 'image'], contextWindow, maxTokens }] });
    // the reference's release: the provider's own id
    const ref = config(s, OPENCLAW_REFERENCE_VERSION);
    expect(Object.keys(ref.models.providers)).toEqual([id]);
    expect(ref.agents.defaults.model.primary).toBe(`${id}/m-1`);
    // 2026.9 rewrites models of the ids anthropic and openai it deems retired: there, gaia2-<id>
    const newer = id === 'anthropic' || id === 'openai' ? `gaia2-${id}` : id;
    const c = config(s, '2026.9.6');
    expect(Object.keys(c.models.providers)).toEqual([newer]);
    expect(c.agents.defaults.model.primary).toBe(`${newer}/m-1`);
    // the key only by reference, in the variable OpenClaw reads it from
    expect(JSON.stringify(c)).not.toContain('sk-oc-test');
    expect(cfg.keyEnv(s)).toEqual({ GAIA2_OPENCLAW_KEY: 'sk-oc-test' });
  });

  it("without a base URL: OpenClaw's built-in provider, the key in the provider's own variable", () => {
    for (const [provider, vars] of [['anthropic', ['ANTHROPIC_API_KEY']], ['openai', ['OPENAI_API_KEY']], ['google', ['GEMINI_API_KEY', 'GOOGLE_API_KEY']]] as const) {
      const s = setup({ PROVIDER: provider });
      expect(s.custom).toBeNull();
      expect(config(s, '2026.9.6').models).toEqual({ catalogRefresh: { enabled: false } });
      expect(config(s, '2026.4.1').models).toEqual({});
      expect(cfg.keyEnv(s)).toEqual(Object.fromEntries(['GAIA2_OPENCLAW_KEY', ...vars].map((v) => [v, 'sk-oc-test'])));
    }
  });

  it("with a base URL the gateway's environment has no web-search provider's key variable (2026.9 would install that plugin at start-up)", () => {
    const run = { PROVIDER: 'openrouter', MODEL: 'm-1', API_KEY: 'tok', OPENROUTER_API_KEY: 'tok', PERPLEXITY_API_KEY: 'x', TAVILY_API_KEY: 'y', HOME: '/home/agent' };
    const custom = setup({ PROVIDER: 'openrouter', BASE_URL: 'http://gw:1/v1' });
    const env = cfg.gatewayBaseEnv(run, custom);
    for (const name of ['OPENROUTER_API_KEY', 'PERPLEXITY_API_KEY', 'TAVILY_API_KEY']) expect(env).not.toHaveProperty(name);
    expect(env).toMatchObject({ PROVIDER: 'openrouter', API_KEY: 'tok', HOME: '/home/agent' });
    // the run's own environment is left as it was
    expect(run.OPENROUTER_API_KEY).toBe('tok');
    // openrouter is always a provider entry of ours (OpenRouter's own URL without a base URL): the key by reference there too
    expect(cfg.gatewayBaseEnv(run, setup({ PROVIDER: 'openrouter' }))).not.toHaveProperty('OPENROUTER_API_KEY');
    // a built-in provider (no base URL) gets the run's environment as it is
    expect(cfg.gatewayBaseEnv(run, setup({ PROVIDER: 'anthropic' }))).toEqual(run);
  });

  it('[agent].context_window, when the run sets it, is the context window of the model', () => {
    expect(setup({ PROVIDER: 'openai', BASE_URL: 'http://gw:1', GAIA2_AGENT_CONTEXT_WINDOW: '64000' }).custom.models[0]).toMatchObject({ contextWindow: 64_000, maxTokens: 128_000 });
  });

  it('MAX_TOKENS, when the run sets it, is the max tokens of the model', () => {
    expect(setup({ PROVIDER: 'anthropic', BASE_URL: 'http://gw:1', MAX_TOKENS: '4096' }).custom.models[0]).toMatchObject({ maxTokens: 4096, contextWindow: 200_000 });
  });

  it('refuses openai-compat without a base URL, an unknown provider, and no model, naming the variable', () => {
    expect(() => setup({ PROVIDER: 'openai-compat' })).toThrow(/PROVIDER=openai-compat needs BASE_URL/);
    expect(() => setup({ PROVIDER: 'bedrock' })).toThrow(/not PROVIDER=bedrock/);
    expect(() => cfg.providerSetup({ PROVIDER: 'anthropic' })).toThrow(/MODEL is not set/);
  });
});

describe("the reference's other values, in the keys of the release that runs", () => {
  const s = setup({ PROVIDER: 'openai-compat', BASE_URL: 'http://gw:1/v1' });

  it('2026.4.1 (the reference pin): its keys as the reference writes them', () => {
    const c = config(s, '2026.4.1', { thinking: 'medium' });
    expect(c.agents.defaults).toMatchObject({
      skipBootstrap: true, thinkingDefault: 'medium', timeoutSeconds: 1200, workspace: '/home/agent', maxConcurrent: 4, subagents: { maxConcurrent: 8 },
      envelopeTimestamp: 'off', envelopeElapsed: 'off', heartbeat: { every: '24h' }, llm: { idleTimeoutSeconds: 300 },
    });
    expect(c.tools).toEqual({ allow: ['exec'], exec: { security: 'full', ask: 'off', safeBins: [] }, elevated: { enabled: false } });
    expect(c.plugins).toEqual({ entries: {} });
    expect(c.messages).toEqual({ messagePrefix: 'none', ackReactionScope: 'group-mentions', queue: { mode: 'steer' } });
    expect(c.channels).toEqual({ defaults: { heartbeat: { showOk: true, showAlerts: true } } });
    expect(c.gateway).toEqual({ bind: 'loopback', mode: 'local', port: 41000, auth: { mode: 'token', token: 'tok' }, controlUi: { allowInsecureAuth: true } });
    expect(c.hooks).toEqual({ enabled: true, token: 'hooks', path: '/hooks' });
    expect(c.update).toEqual({ checkOnStart: false, auto: { enabled: false } });
    expect(c).not.toHaveProperty('session');
    expect(c.models.providers['openai-compat'].timeoutSeconds).toBeUndefined();
  });

  it('2026.9.6: the renamed keys (no messagePrefix, which would turn on the WhatsApp channel; the idle timeout on the provider)', () => {
    const c = config(s, '2026.9.6');
    expect(c.agents.defaults.thinkingDefault).toBe('low');
    expect(c.agents.defaults.timeoutSeconds).toBe(1200);
    for (const k of ['envelopeTimestamp', 'envelopeElapsed', 'llm']) expect(c.agents.defaults).not.toHaveProperty(k);
    expect(c.models.providers['openai-compat'].timeoutSeconds).toBe(300);
    expect(c.tools.exec).toEqual({ mode: 'full', safeBins: [] });
    expect(c.messages).toEqual({ ackReactionScope: 'group-mentions', queue: { mode: 'steer' } });
    expect(c.channels).toEqual({ defaults: { heartbeatVisibility: { showOk: true, showAlerts: true } } });
    expect(c.gateway.controlUi).toEqual({ enabled: false });
    expect(c.plugins).toEqual({ entries: {} });
    // it would fetch a model catalog from catalog.openclaw.ai at start-up
    expect(c.models.catalogRefresh).toEqual({ enabled: false });
    // exec itself, not behind tool_search/tool_describe/tool_call, as the reference's release offers it
    expect(c.tools.toolSearch).toBe(false);
    // exec as a shell command for every model, not code mode's exec/wait pair (OpenAI's models)
    expect(c.tools.codeMode).toBe(false);
    // no notice of agent-serve's warm-up session in the agent's first request
    expect(c.session).toEqual({ notifyOnCreate: false });
  });

  it('the queue mode is the option when given', () => {
    expect(config(s, '2026.9.6', { queueMode: 'followup' }).messages.queue).toEqual({ mode: 'followup' });
  });

  it('the workspace files: AGENTS.md beside empty persona files and a heartbeat note', () => {
    expect(Object.keys(cfg.WORKSPACE_FILES).sort()).toEqual(['HEARTBEAT.md', 'IDENTITY.md', 'SOUL.md', 'TOOLS.md', 'USER.md']);
    for (const f of ['SOUL.md', 'TOOLS.md', 'IDENTITY.md', 'USER.md']) expect(cfg.WORKSPACE_FILES[f]).toBe('');
    expect(cfg.WORKSPACE_FILES['HEARTBEAT.md']).toContain('HEARTBEAT_OK');
  });

  it('compares releases', () => {
    expect(cfg.atLeast('2026.9.6', '2026.9.0')).toBe(true);
    expect(cfg.atLeast('2026.10.1', '2026.9.0')).toBe(true);
    expect(cfg.atLeast('2026.4.1', '2026.9.0')).toBe(false);
    expect(cfg.atLeast('2026.7.35', '2026.9.0')).toBe(false);
  });
});

describe('exec approvals', () => {
  it("2026.4.1: the reference's file (everything runs, nothing asks); 2026.9.6: none (the config's exec mode)", () => {
    expect(cfg.execApprovals('2026.4.1')).toEqual({ version: 1, defaults: { security: 'full', ask: 'off', askFallback: 'full' }, agents: { main: { security: 'full', ask: 'off', askFallback: 'full' } } });
    expect(cfg.execApprovals('2026.9.6')).toBeNull();
  });
});
