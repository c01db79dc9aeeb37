// OpenClaw with the providers of the reference's matrix beyond openai-compat (which
// openclaw.test.ts runs): anthropic (Messages, streaming), google (Gemini
// streamGenerateContent), openai (Responses, streaming) and openrouter (chat completions), each
// playing the single-turn sample through OpenClaw's exec tool in a real container, against the
// streaming double of that provider behind the run's gateway, on both releases: the newest (the
// default, on the Node 24 its layer brings) and the reference's pin 2026.4.1 (on the world's
// Node 22); the four providers of one release at once. Each provider gets the reference's
// definition (its own id, its context window and max tokens). The containers' connections are
// watched too (helpers/connection-watch.ts): OpenClaw — plugins on, as the reference runs it —
// reaches nothing but the model endpoint, whichever provider and release.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectEngine, type UnitBackend } from '../../../runner/src/engine/index.js';
import { DEFAULT_IMAGE } from '../../../runner/src/image/index.js';
import { findAdapter } from '../../../runner/src/agents/index.js';
import { openclaw, OPENCLAW_REFERENCE_VERSION } from '../../../runner/src/agents/openclaw.js';
import { ensureAgentLayer } from '../../../runner/src/image/agent-layer.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openclawShell, readRequest, shellExchanges } from '../../helpers/fake-llm/index.js';
import { samplePlay, SAMPLES, scenarioFile } from './helpers/agent-samples.js';
import { flowsTo, strayFlows, watchConnections, type WatchedContainer } from './helpers/connection-watch.js';
import { agentLayer, readReport, readResults, runAgentOnce, type AgentUnderTest, type DrivenRun } from './helpers/third-party-run.js';

const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;

interface ProviderCase {
  agent: AgentUnderTest;
  /** The API path OpenClaw must call, and the header the provider's key goes in. */
  path: RegExp;
  keyHeader: string;
  /** The reference's definition of the provider with a base URL: its id, context window and max tokens. */
  id: string;
  contextWindow: number;
  maxTokens: number;
}

const VERSIONS = [openclaw.package.version, OPENCLAW_REFERENCE_VERSION];
/**
 * The providers run on each release: all four on both. GAIA2_TEST_OPENCLAW_CASES (e.g.
 * "2026.9.6:openrouter,2026.4.1:google") runs the cases it names instead, for a look at one
 * (each gateway takes minutes to start on a busy machine).
 */
const ALL_PROVIDERS = ['anthropic', 'google', 'openai', 'openrouter'];
const DEFAULT_PROVIDERS: Record<string, string[]> = { [openclaw.package.version]: ALL_PROVIDERS, [OPENCLAW_REFERENCE_VERSION]: ALL_PROVIDERS };
const only = (process.env.GAIA2_TEST_OPENCLAW_CASES ?? '').split(',').map((s) => s.trim()).filter(Boolean);
const PROVIDERS: Record<string, string[]> = only.length === 0 ? DEFAULT_PROVIDERS : Object.fromEntries(VERSIONS.map((v) => [v, ALL_PROVIDERS.filter((p) => only.includes(`${v}:${p}`))]));
const RUN_VERSIONS = VERSIONS.filter((v) => PROVIDERS[v]!.length > 0);
/**
 * The provider's id in OpenClaw's config: the reference's (the provider's own), except where the
 * newer release would rewrite the model it deems retired (anthropic, openai): gaia2-<id> there.
 */
const providerIdOf = (c: ProviderCase, version: string) => (version !== OPENCLAW_REFERENCE_VERSION && (c.id === 'anthropic' || c.id === 'openai') ? `gaia2-${c.id}` : c.id);
const root = join(import.meta.dirname, '..', '..', '..');

const CASES: Record<string, ProviderCase> = {
  anthropic: {
    agent: { name: 'openclaw', shell: openclawShell('anthropic'), provider: 'anthropic', model: 'claude-sonnet-4-5', flags: ['--thinking', 'low'] },
    path: /^\/v1\/messages$/,
    keyHeader: 'x-api-key',
    id: 'anthropic',
    contextWindow: 200_000,
    maxTokens: 64_000,
  },
  google: {
    agent: { name: 'openclaw', shell: openclawShell('gemini'), provider: 'google', model: 'gemini-2.5-flash', flags: ['--thinking', 'low'] },
    path: /^\/v1beta\/models\/gemini-2\.5-flash:streamGenerateContent$/,
    keyHeader: 'x-goog-api-key',
    id: 'google',
    contextWindow: 1_048_576,
    maxTokens: 65_536,
  },
  openai: {
    agent: { name: 'openclaw', shell: openclawShell('openai-responses'), provider: 'openai', model: 'gpt-5.1', flags: ['--thinking', 'low'] },
    path: /^\/v1\/responses$/,
    keyHeader: 'authorization',
    id: 'openai',
    contextWindow: 272_000,
    maxTokens: 128_000,
  },
  openrouter: {
    agent: { name: 'openclaw', shell: openclawShell('openai-chat'), provider: 'openrouter', model: 'anthropic/claude-sonnet-4.5', flags: ['--thinking', 'low'] },
    path: /^\/v1\/chat\/completions$/,
    keyHeader: 'authorization',
    id: 'openrouter',
    contextWindow: 262_144,
    maxTokens: 65_535,
  },
};

let engine: UnitBackend;
/** Runs by "<version> <provider>". */
const runs = new Map<string, { run: DrivenRun & { key: string } }>();
/** The containers of all runs (one watch per release's layer): which is which does not matter to the watch. */
let containers: WatchedContainer[] = [];

beforeAll(async () => {
  engine = await connectEngine();
  const adapter = findAdapter('openclaw')!;
  const play = samplePlay(SAMPLES.single);
  for (const version of RUN_VERSIONS) {
    const layer = version === adapter.package.version ? await agentLayer(engine, image, 'openclaw') : await ensureAgentLayer(engine.images!, { projectRoot: root, worldTag: image, adapter, version });
    const watch = watchConnections((await engine.describe()).endpoint.replace(/^unix:\/\//, ''), layer.tag);
    try {
      const done = await Promise.all(
        PROVIDERS[version]!.map((k) => CASES[k]!).map((c) =>
          runAgentOnce(image, { ...c.agent, flags: [...(c.agent.flags ?? []), '--agent-version', version] }, { scenario: scenarioFile(SAMPLES.single), plays: play, flags: ['--timeout', '1800'] }),
        ),
      );
      PROVIDERS[version]!.forEach((k, i) => runs.set(`${version} ${k}`, { run: done[i]! }));
    } finally {
      containers.push(...(await watch.stop()));
    }
  }
}, 2_400_000);

afterAll(async () => {
  await engine?.close();
});

describe.each(RUN_VERSIONS.flatMap((v) => PROVIDERS[v]!.map((p) => [v, p] as const)))('openclaw %s with the %s provider (real container, streaming double)', (version, provider) => {
  const c = CASES[provider]!;

  it('the sample is judged PASS', () => {
    const { run } = runs.get(`${version} ${provider}`)!;
    const [r] = readResults(run.dir);
    expect(r!.failure_reasons ?? r!.error ?? null, run.err).toBeNull();
    expect(r!.status).toBe('pass');
    expect(r!.agent).toEqual({ name: 'openclaw', version });
  });

  it("OpenClaw had the reference's definition of the provider: its id, context window and max tokens; plugins on, run timeout 1200 s, queue mode steer", () => {
    const { run } = runs.get(`${version} ${provider}`)!;
    const config = JSON.parse(readFileSync(join(run.dir, SAMPLES.single.split('/')[1]!, 'agent-trace/openclaw-config.json'), 'utf8'));
    const id = providerIdOf(c, version);
    expect(Object.keys(config.models.providers)).toEqual([id]);
    expect(config.models.providers[id].models[0]).toMatchObject({ id: c.agent.model, reasoning: true, contextWindow: c.contextWindow, maxTokens: c.maxTokens });
    expect(config.agents.defaults).toMatchObject({ model: { primary: `${id}/${c.agent.model}` }, timeoutSeconds: 1200, workspace: '/home/agent' });
    expect(config.plugins).toEqual({ entries: {} });
    expect(config.messages.queue).toEqual({ mode: 'steer' });
    expect(config.tools.allow).toEqual(['exec']);
  });

  it("OpenClaw spoke the provider's own API, streaming, offered exec only, and sent the key it was given", () => {
    const { run } = runs.get(`${version} ${provider}`)!;
    expect(run.fake.requests.length).toBeGreaterThan(0);
    for (const q of run.fake.requests) {
      expect(q.path).toMatch(c.path);
      expect(q.stream).toBe(true);
      expect(String(q.headers[c.keyHeader])).toContain(run.key);
    }
    if (provider === 'openrouter') for (const q of run.fake.requests) expect(q.body.reasoning).toEqual({ enabled: true });
    // the model asked for, and no other (2026.9 would call claude-sonnet-4-6 for claude-sonnet-4-5, gpt-5.5 for gpt-5.1, under the provider's own id)
    for (const q of run.fake.requests) expect(q.body.model ?? /models\/([^:]+):/.exec(q.path)?.[1]).toBe(c.agent.model);
    expect(readRequest(c.agent.shell.format, run.fake.requests[0]!.body).tools).toEqual(['exec']);
  });

  it("every app command ran through exec and its output came back in the provider's format", () => {
    const { run } = runs.get(`${version} ${provider}`)!;
    const calls = shellExchanges(c.agent.shell.format, run.fake.requests.at(-1)!.body, 'exec');
    expect(calls.map((x) => x.args.command)).toEqual(samplePlay(SAMPLES.single)[0]!.commands);
    expect(calls[0]!.result).toMatch(/ececbe590b923620bc5384dc4ef7bd0e|cart/i);
    expect(calls[1]!.result).toMatch(/order_id/);
  });

  it("the report's agent tokens are what the double billed", () => {
    const { run } = runs.get(`${version} ${provider}`)!;
    const billed = run.fake.billing();
    const agent = readReport(run.dir).overall.usage.agent;
    expect(agent).toMatchObject({ llm_calls: billed.responses, output: billed.output });
    expect(agent.input + agent.cache_read + agent.cache_write).toBe(billed.input + billed.cacheRead + billed.cacheWrite);
  });

});

describe('openclaw reaches nothing but the model endpoint (connection tracking, every provider)', () => {
  it("each run's container reached its gateway for its model calls, and no other host", () => {
    expect(containers).toHaveLength(RUN_VERSIONS.reduce((n, v) => n + PROVIDERS[v]!.length, 0));
    for (const c of containers) {
      expect(flowsTo(c, 'BASE_URL').length).toBeGreaterThan(0);
      // 2026.9 looks up clawhub.ai once idle after start-up (its plugin list's catalog feed); the
      // gateway process's lookups answer for loopback only (lib/openclaw-offline.mjs), and the
      // sealed container refuses anything else: no flow but to the gateway, DNS included.
      expect(strayFlows(c), `${c.id} ${c.ip}`).toEqual([]);
    }
  });
});
