import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RUN_DEFAULTS, type RunPlan } from '../../../runner/src/plan/plan.js';
import { buildBaseEnv, detectProfile, keyExportVars, lookupProviderKey, rewriteLoopback, CA_BUNDLE_PATH } from '../../../runner/src/env/index.js';

function plan(over: { agent?: Partial<RunPlan['agent']>; judge?: RunPlan['judge']; run?: Partial<RunPlan['run']> } = {}): RunPlan {
  return {
    command: 'run',
    configPath: null,
    target: { kind: 'scenario', scenario: '/x.json' },
    agent: { name: 'default', image: 'localhost/gaia2-agent:latest', runtime: 'podman', provider: 'openai', model: 'gpt-x', apiKey: null, baseUrl: null, thinking: 'low', tools: 'shell', maxTokens: null, volumes: [], script: null, ...over.agent },
    judge: over.judge === undefined ? { provider: 'openai', model: 'judge-m', baseUrl: null, apiKey: null } : over.judge,
    run: { ...RUN_DEFAULTS, ...over.run },
  };
}

describe('image profiles', () => {
  it('OpenClaw, Hermes, oracle and our image', () => {
    expect(detectProfile('gaia2-oc:latest')).toMatchObject({ name: 'openclaw', defaultProvider: 'anthropic', baseUrlKeys: ['BASE_URL', 'OPENROUTER_BASE_URL'], extra: { OPENCLAW_FORCE_RECONFIG: '1' } });
    expect(detectProfile('gaia2-hermes')).toMatchObject({ name: 'hermes', defaultProvider: 'anthropic', baseUrlKeys: ['BASE_URL'], extra: {} });
    expect(detectProfile('gaia2-oracle:1')).toMatchObject({ name: 'oracle', defaultProvider: '', baseUrlKeys: [], oracleOnly: true });
    expect(detectProfile('localhost/gaia2-agent:latest')).toMatchObject({ name: 'gaia2-runner', oracleOnly: false });
  });
});

describe('provider keys', () => {
  it('prefers the provider variable over API_KEY and reports the source', () => {
    expect(lookupProviderKey('openai', { OPENAI_API_KEY: 'sk-openai', API_KEY: 'generic' })).toEqual({ value: 'sk-openai', source: 'OPENAI_API_KEY' });
    expect(lookupProviderKey('openai', { API_KEY: 'generic' })).toEqual({ value: 'generic', source: 'API_KEY' });
    expect(lookupProviderKey('openai-compat', { OPENAI_API_KEY: 'o', OPENAI_COMPAT_API_KEY: 'c' })?.source).toBe('OPENAI_COMPAT_API_KEY');
    expect(lookupProviderKey('gemini', { GEMINI_API_KEY: 'g' })?.source).toBe('GEMINI_API_KEY');
  });
  it('export names per provider', () => {
    expect(keyExportVars('openai')).toEqual(['OPENAI_API_KEY']);
    expect(keyExportVars('openai-compat')).toEqual(['OPENAI_COMPAT_API_KEY', 'OPENAI_COMPLETIONS_API_KEY']);
    expect(keyExportVars('google')).toEqual(['GEMINI_API_KEY', 'GOOGLE_API_KEY']);
    expect(keyExportVars('mystery')).toEqual([]);
  });
});

describe('container environment', () => {
  it('agent provider env, key from the host with a notice, exported under provider names', () => {
    const r = buildBaseEnv(plan(), { OPENAI_API_KEY: 'sk-host-openai-key' });
    expect(r.env).toMatchObject({ PROVIDER: 'openai', MODEL: 'gpt-x', API_KEY: 'sk-host-openai-key', OPENAI_API_KEY: 'sk-host-openai-key', THINKING: 'low' });
    expect(r.notices.join('\n')).toContain('using OPENAI_API_KEY');
    expect(r.notices.join('\n')).not.toContain('sk-host-openai-key');
  });

  it('tool mode and token limit reach the default agent ([agent] tools, max_tokens)', () => {
    expect(buildBaseEnv(plan(), {}).env).toMatchObject({ GAIA2_AGENT_TOOLS: 'shell' });
    expect(buildBaseEnv(plan(), {}).env.MAX_TOKENS).toBeUndefined();
    const r = buildBaseEnv(plan({ agent: { tools: 'functions', maxTokens: 4096 } }), {});
    expect(r.env).toMatchObject({ GAIA2_AGENT_TOOLS: 'functions', MAX_TOKENS: '4096' });
    expect(buildBaseEnv(plan({ agent: { name: 'oracle', provider: null, model: null, tools: 'functions' } }), {}).env.GAIA2_AGENT_TOOLS).toBeUndefined();
  });

  it('google provider: GEMINI_API_KEY and GOOGLE_API_KEY both set', () => {
    const r = buildBaseEnv(plan({ agent: { provider: 'google', model: 'gemini-x' } }), { GEMINI_API_KEY: 'gem-key-123' });
    expect(r.env).toMatchObject({ PROVIDER: 'google', MODEL: 'gemini-x', GEMINI_API_KEY: 'gem-key-123', GOOGLE_API_KEY: 'gem-key-123' });
  });

  it('the judge key goes only to GAIA2_JUDGE_API_KEY, never under provider names', () => {
    const r = buildBaseEnv(plan({ agent: { name: 'oracle', provider: null, model: null } }), { OPENAI_API_KEY: 'judge-key-openai' });
    expect(r.env).toMatchObject({ GAIA2_JUDGE_MODEL: 'judge-m', GAIA2_JUDGE_PROVIDER: 'openai', GAIA2_JUDGE_API_KEY: 'judge-key-openai' });
    expect(r.env.OPENAI_API_KEY).toBeUndefined();
    expect(r.env.ANTHROPIC_API_KEY).toBeUndefined();
    expect(r.env.GAIA2_JUDGE_TYPE).toBeUndefined();
    expect(r.notices.join('\n')).toContain('using OPENAI_API_KEY');
  });

  it('an oracle run has no provider env at all, and no judge means no judge variables', () => {
    const r = buildBaseEnv(plan({ agent: { name: 'oracle', provider: null, model: null }, judge: null }), { OPENAI_API_KEY: 'x', BASE_URL: 'http://leak' });
    for (const k of ['PROVIDER', 'MODEL', 'API_KEY', 'BASE_URL', 'GAIA2_JUDGE_MODEL', 'GAIA2_JUDGE_API_KEY']) expect(r.env[k]).toBeUndefined();
  });

  it('rewrites host-loopback URLs to the gateway alias in bridge mode only', () => {
    expect(rewriteLoopback('http://127.0.0.1:8080/v1')).toBe('http://host.containers.internal:8080/v1');
    expect(rewriteLoopback('http://localhost/v1')).toBe('http://host.containers.internal/v1');
    expect(rewriteLoopback('http://localhostify.com/v1')).toBe('http://localhostify.com/v1');
    expect(rewriteLoopback('https://api.openai.com/v1')).toBe('https://api.openai.com/v1');
    const bridged = buildBaseEnv(plan({ agent: { baseUrl: 'http://127.0.0.1:9000/v1' } }), {});
    expect(bridged.env.BASE_URL).toBe('http://host.containers.internal:9000/v1');
    const host = buildBaseEnv(plan({ agent: { baseUrl: 'http://127.0.0.1:9000/v1' }, run: { network: 'host' } }), {});
    expect(host.env.BASE_URL).toBe('http://127.0.0.1:9000/v1');
    const oc = buildBaseEnv(plan({ agent: { image: 'gaia2-oc', baseUrl: 'https://r.example/v1' } }), {});
    expect(oc.env).toMatchObject({ BASE_URL: 'https://r.example/v1', OPENROUTER_BASE_URL: 'https://r.example/v1', OPENCLAW_FORCE_RECONFIG: '1' });
  });

  it('proxy relay: every proxy variable points at it; NO_PROXY merges loopback and the host list', () => {
    const r = buildBaseEnv(plan(), { GAIA2_PROXY_RELAY_URL: 'proxy.example:8080', NO_PROXY: '.corp.example' });
    for (const k of ['http_proxy', 'https_proxy', 'HTTP_PROXY', 'HTTPS_PROXY']) expect(r.env[k]).toBe('http://proxy.example:8080');
    expect(r.env.NO_PROXY!.split(',')).toEqual(expect.arrayContaining(['127.0.0.1', 'localhost', '.corp.example']));
    expect(r.env.no_proxy).toBe(r.env.NO_PROXY);
    expect(r.env.GAIA2_PROXY_RELAY_URL).toBeUndefined();
  });

  it('pass-through proxies; a loopback proxy is rewritten for bridged containers', () => {
    const r = buildBaseEnv(plan(), { https_proxy: 'http://127.0.0.1:3128' });
    expect(r.env.https_proxy).toBe('http://host.containers.internal:3128');
    expect(r.env.http_proxy).toBeUndefined();
  });

  it('CA bundle: installed as a file with the three variables; a missing file is a notice', () => {
    const d = mkdtempSync(join(tmpdir(), 'ca-'));
    writeFileSync(join(d, 'ca.pem'), '-----BEGIN CERTIFICATE-----\n');
    const r = buildBaseEnv(plan(), { GAIA2_CA_BUNDLE: join(d, 'ca.pem') });
    expect(r.files).toEqual([{ path: CA_BUNDLE_PATH, content: '-----BEGIN CERTIFICATE-----\n', setting: 'GAIA2_CA_BUNDLE' }]);
    for (const k of ['NODE_EXTRA_CA_CERTS', 'REQUESTS_CA_BUNDLE', 'SSL_CERT_FILE']) expect(r.env[k]).toBe(CA_BUNDLE_PATH);
    const missing = buildBaseEnv(plan(), { GAIA2_CA_BUNDLE: join(d, 'nope.pem') });
    expect(missing.files).toEqual([]);
    expect(missing.notices.join()).toContain('is not a file');
  });

  it('time speed and notification mode', () => {
    const r = buildBaseEnv(plan({ run: { timeSpeed: 5, notificationMode: 'native' } }), {});
    expect(r.env).toMatchObject({ GAIA2_TIME_SPEED: '5.0', GAIA2_NOTIFICATION_MODE: 'native' });
    expect(buildBaseEnv(plan(), {}).env.GAIA2_NOTIFICATION_MODE).toBeUndefined();
  });

  it('GAIA2_CLOCK_CPU_WAIT only when [run].clock_cpu_wait is set (else the image decides: ours excludes the wait)', () => {
    expect(buildBaseEnv(plan(), {}).env).not.toHaveProperty('GAIA2_CLOCK_CPU_WAIT');
    expect(buildBaseEnv(plan({ run: { clockCpuWait: 'count' } }), {}).env.GAIA2_CLOCK_CPU_WAIT).toBe('count');
  });
});

describe('upstream run settings in the container environment', () => {
  it('GAIA2_IDLE_TIMEOUT only when idle_timeout is set (the daemon keeps its 300 s otherwise), as a Python float', () => {
    expect(buildBaseEnv(plan(), {}).env).not.toHaveProperty('GAIA2_IDLE_TIMEOUT');
    expect(buildBaseEnv(plan({ run: { activityTimeout: 900 } }), {}).env).not.toHaveProperty('GAIA2_IDLE_TIMEOUT');
    expect(buildBaseEnv(plan({ run: { idleTimeout: 600 } }), {}).env.GAIA2_IDLE_TIMEOUT).toBe('600.0');
    expect(buildBaseEnv(plan({ run: { idleTimeout: 42.5 } }), {}).env.GAIA2_IDLE_TIMEOUT).toBe('42.5');
  });

  it('the judge prompt set and extra body go as GAIA2_JUDGE_PROMPT_VERSION and GAIA2_JUDGE_EXTRA_BODY (JSON)', () => {
    const judge = { provider: 'openai-compat', model: 'gpt-oss-120b', baseUrl: 'http://gpu-node-02:8001/v1', apiKey: null, promptVersion: 'omnilingual-gaia2', extraBody: { reasoning_effort: 'low' } };
    const env = buildBaseEnv(plan({ judge }), {}).env;
    expect(env.GAIA2_JUDGE_PROMPT_VERSION).toBe('omnilingual-gaia2');
    expect(JSON.parse(env.GAIA2_JUDGE_EXTRA_BODY!)).toEqual({ reasoning_effort: 'low' });
    const plain = buildBaseEnv(plan(), {}).env;
    expect(plain).not.toHaveProperty('GAIA2_JUDGE_PROMPT_VERSION');
    expect(plain).not.toHaveProperty('GAIA2_JUDGE_EXTRA_BODY');
  });

  it('MINI_* reach a mini-swe image from the host when set, and no other image', () => {
    const host = { MINI_STEP_LIMIT: '40', MINI_COST_LIMIT: '3.0', MINI_COMMAND_TIMEOUT: '60', MINI_LOG_LEVEL: 'DEBUG', MINI_TRAJECTORY_FILE: '/tmp/traj.json', OPENAI_API_KEY: 'k' };
    expect(detectProfile('localhost/gaia2-mini-swe:latest')).toMatchObject({ name: 'mini-swe', defaultProvider: 'anthropic', baseUrlKeys: ['BASE_URL'], oracleOnly: false });
    const mini = buildBaseEnv(plan({ agent: { image: 'localhost/gaia2-mini-swe:latest' } }), host).env;
    expect(Object.fromEntries(Object.entries(mini).filter(([k]) => k.startsWith('MINI_')))).toEqual({
      MINI_STEP_LIMIT: '40', MINI_COST_LIMIT: '3.0', MINI_COMMAND_TIMEOUT: '60', MINI_LOG_LEVEL: 'DEBUG', MINI_TRAJECTORY_FILE: '/tmp/traj.json',
    });
    expect(buildBaseEnv(plan({ agent: { image: 'localhost/gaia2-mini-swe:latest' } }), { MINI_STEP_LIMIT: ' ' }).env).not.toHaveProperty('MINI_STEP_LIMIT');
    const ours = buildBaseEnv(plan(), host).env;
    expect(Object.keys(ours).filter((k) => k.startsWith('MINI_'))).toEqual([]);
  });

  it('no_proxy gets the remote hosts of the agent and judge base URLs, loopback ones left out', () => {
    const judge = { provider: 'openai-compat', model: 'j', baseUrl: 'http://gpu-node-02:8001/v1', apiKey: null };
    const remote = buildBaseEnv(plan({ agent: { baseUrl: 'http://h100-001:8000/v1' }, judge, run: { network: 'host' } }), {}).env;
    expect(remote.no_proxy!.split(',')).toEqual(['127.0.0.1', 'localhost', 'h100-001', 'gpu-node-02']);
    expect(remote.NO_PROXY).toBe(remote.no_proxy);
    // loopback URLs with host networking: nothing to add, so no variable (as the reference)
    const local = buildBaseEnv(plan({ agent: { baseUrl: 'http://localhost:8000/v1' }, judge: { ...judge, baseUrl: 'http://127.0.0.1:8001/v1' }, run: { network: 'host' } }), {}).env;
    expect(local).not.toHaveProperty('no_proxy');
    // shared hosts once, after what the host's own no_proxy lists
    const both = buildBaseEnv(plan({ agent: { baseUrl: 'http://node-a:8000/v1' }, judge: { ...judge, baseUrl: 'http://node-a:8001/v1' } }), { no_proxy: 'corp.example', https_proxy: 'http://proxy:3128' }).env;
    expect(both.no_proxy).toBe('127.0.0.1,localhost,corp.example,node-a');
  });
});
