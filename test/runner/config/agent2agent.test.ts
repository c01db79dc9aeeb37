// [agent2agent] and --a2a-* → RunPlan.agent2agent → the container's GAIA2_A2A* variables:
// defaults from the main agent, clear errors naming the field, the key kept out of GAIA2_A2A.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planFromRunFlags, type AgentFlags } from '../../../runner/src/config/cli-flags.js';
import { loadRunConfig, withA2aAppProp } from '../../../runner/src/config/resolve-toml.js';
import { formatSummary } from '../../../runner/src/config/summary.js';
import { buildBaseEnv } from '../../../runner/src/env/index.js';
import { AGENT2AGENT_APP_PROP } from '../../../runner/src/plan/phases.js';
import { phasePlan } from '../../../runner/src/phases/phase-plans.js';

const dir = mkdtempSync(join(tmpdir(), 'gaia2-a2a-config-'));
const scenario = join(dir, 's.json');
writeFileSync(scenario, '{}');

function toml(body: string, env: Record<string, string> = {}, overrides: { a2aAppProp?: number } = {}) {
  const file = join(dir, `c${Math.random().toString(36).slice(2)}.toml`);
  writeFileSync(file, `[target]\nscenario = "${scenario}"\n${body}`);
  return loadRunConfig(file, env, withA2aAppProp(overrides.a2aAppProp));
}

const LLM_AGENT = '[agent]\nprovider = "anthropic"\nmodel = "claude-x"\napi_key_env = "MAIN_KEY"\nbase_url = "http://127.0.0.1:9000"\n';

describe('[agent2agent]', () => {
  it('is off without the table, and with app_prop 0', () => {
    expect(toml(LLM_AGENT, { MAIN_KEY: 'k' }).agent2agent).toBeNull();
    expect(toml(`${LLM_AGENT}[agent2agent]\napp_prop = 0\n`, { MAIN_KEY: 'k' }).agent2agent).toBeNull();
  });

  it("takes the main agent's model, endpoint and key for whatever it leaves out", () => {
    const p = toml(`${LLM_AGENT}[agent2agent]\napp_prop = 1\n`, { MAIN_KEY: 'main-secret' });
    expect(p.agent2agent).toEqual({ appProp: 1, seed: null, provider: 'anthropic', model: 'claude-x', baseUrl: 'http://127.0.0.1:9000', apiKey: { value: 'main-secret', source: 'MAIN_KEY' } });
  });

  it('has its own model, key and seed; another provider never gets the main key', () => {
    const p = toml(`${LLM_AGENT}[agent2agent]\napp_prop = 0.5\nseed = 7\nprovider = "openai"\nmodel = "gpt-y"\napi_key_env = "A2A_KEY"\n`, { MAIN_KEY: 'm', A2A_KEY: 'a2a-secret' });
    expect(p.agent2agent).toEqual({ appProp: 0.5, seed: 7, provider: 'openai', model: 'gpt-y', baseUrl: null, apiKey: { value: 'a2a-secret', source: 'A2A_KEY' } });
    const q = toml(`${LLM_AGENT}[agent2agent]\napp_prop = 0.5\nprovider = "openai"\n`, { MAIN_KEY: 'm' });
    expect(q.agent2agent?.apiKey).toBeNull();
    expect(q.agent2agent?.baseUrl).toBeNull();
  });

  it('names the field at fault', () => {
    expect(() => toml(`${LLM_AGENT}[agent2agent]\napp_prop = 1.5\n`, { MAIN_KEY: 'k' })).toThrow(/\[agent2agent\]\.app_prop must be a number from 0 to 1/);
    expect(() => toml(`${LLM_AGENT}[agent2agent]\nmodel = "x"\n`, { MAIN_KEY: 'k' })).toThrow(/without \[agent2agent\]\.app_prop/);
    expect(() => toml(`${LLM_AGENT}[agent2agent]\napp_prop = 1\napi_key_env = "NOPE"\n`, { MAIN_KEY: 'k' })).toThrow(/\[agent2agent\]\.api_key_env references an unset env var: NOPE/);
    expect(() => toml(`${LLM_AGENT}[agent2agent]\napp_prop = 1\nmodle = "x"\n`, { MAIN_KEY: 'k' })).toThrow(/modle/);
    // A scripted main agent has no model to share.
    expect(() => toml(`[agent]\nname = "oracle"\n[agent2agent]\napp_prop = 1\n`)).toThrow(/Missing: \[agent2agent\]\.provider, \[agent2agent\]\.model/);
  });

  it('--a2a-app-prop replaces the file value', () => {
    expect(toml(`${LLM_AGENT}[agent2agent]\napp_prop = 0.5\n`, { MAIN_KEY: 'k' }, { a2aAppProp: 1 }).agent2agent?.appProp).toBe(1);
    expect(toml(LLM_AGENT, { MAIN_KEY: 'k' }, { a2aAppProp: 0.25 }).agent2agent?.appProp).toBe(0.25);
  });
});

const FLAGS: AgentFlags & { scenario: string } = {
  scenario,
  image: 'localhost/gaia2-agent:latest',
  agent: 'oracle',
  runtime: 'podman',
  adapterPort: '8090',
  timeout: '60',
  healthTimeout: '60',
  activityTimeout: '60',
  thinking: 'off',
  logLevel: 'INFO',
  notificationMode: 'message',
  network: 'bridge',
};

describe('--a2a-* flags and the container environment', () => {
  it('builds GAIA2_A2A without the key; the endpoint and key go in variables of their own', () => {
    const plan = planFromRunFlags({ ...FLAGS, a2aAppProp: '1', a2aSeed: '3', a2aProvider: 'openai-compat', a2aModel: 'small', a2aBaseUrl: 'http://127.0.0.1:8111/v1', a2aApiKeyEnv: 'K' }, { K: 'a2a-canary' });
    const { env } = buildBaseEnv(plan, {});
    expect(JSON.parse(env.GAIA2_A2A!)).toEqual({ app_prop: 1, seed: 3, provider: 'openai-compat', model: 'small', thinking: 'off' });
    expect(env.GAIA2_A2A_BASE_URL).toBe('http://host.containers.internal:8111/v1');
    expect(env.GAIA2_A2A_API_KEY).toBe('a2a-canary');
    expect(env.GAIA2_A2A).not.toContain('a2a-canary');
    expect(formatSummary(plan, null).join('\n')).not.toContain('a2a-canary');
    expect(formatSummary(plan, null).join('\n')).toMatch(/Agent2Agent: app agents operate 100%/);
  });

  it('looks the key up by provider when none is given, and sets nothing when off', () => {
    const plan = planFromRunFlags({ ...FLAGS, a2aAppProp: '0.5', a2aProvider: 'openai', a2aModel: 'm' }, {});
    const b = buildBaseEnv(plan, { OPENAI_API_KEY: 'from-host' });
    expect(b.env.GAIA2_A2A_API_KEY).toBe('from-host');
    expect(b.notices.join('\n')).toMatch(/App agents' API key not given explicitly; using OPENAI_API_KEY/);
    expect(buildBaseEnv(planFromRunFlags(FLAGS, {}), {}).env.GAIA2_A2A).toBeUndefined();
  });

  it('rejects a value that is not a number', () => {
    expect(() => planFromRunFlags({ ...FLAGS, a2aAppProp: 'half', a2aProvider: 'openai', a2aModel: 'm' }, {})).toThrow(/--a2a-app-prop must be a number/);
    expect(() => planFromRunFlags({ ...FLAGS, a2aAppProp: '2', a2aProvider: 'openai', a2aModel: 'm' }, {})).toThrow(/--a2a-app-prop must be a number from 0 to 1/);
  });
});

describe("gaia2-run's agent2agent phase", () => {
  const phase = (body: string, env: Record<string, string> = {}) => {
    const file = join(dir, `p${Math.random().toString(36).slice(2)}.toml`);
    writeFileSync(file, `[target]\ndataset_root = "${dir}"\n${body}`);
    const settings = { root: join(dir, 'phases'), runs: 1, miniSubset: null, retry: false };
    return (name: 'standard' | 'agent2agent') => phasePlan(name, { kind: 'toml', file, env }, settings).agent2agent ?? null;
  };

  it("uses the config's settings with ARE's phase app_prop, or the main agent's model", () => {
    const withTable = phase(`${LLM_AGENT}[agent2agent]\napp_prop = 0.5\nmodel = "small"\n`, { MAIN_KEY: 'k' });
    expect(withTable('agent2agent')).toMatchObject({ appProp: AGENT2AGENT_APP_PROP, model: 'small', provider: 'anthropic' });
    expect(AGENT2AGENT_APP_PROP).toBe(1);
    const plain = phase(LLM_AGENT, { MAIN_KEY: 'k' });
    expect(plain('agent2agent')).toMatchObject({ appProp: 1, model: 'claude-x', apiKey: { source: 'MAIN_KEY' } });
    expect(plain('standard')).toBeNull();
    expect(() => phase('[agent]\nname = "oracle"\n')('agent2agent')).toThrow(/\[agent2agent\]\.provider/);
  });
});
