// OpenClaw with the providers of the reference's matrix beyond openai-compat (which
// openclaw.test.ts runs): anthropic (Messages, streaming), google (Gemini
// streamGenerateContent), openai (Responses, streaming) and openrouter (chat completions), each
// playing the single-turn sample through OpenClaw's exec tool in a real container, against the
// streaming double of that provider behind the run's gateway. All runs at once, one sample
// each: OpenClaw is the slowest agent to start a turn. The
// containers' connections are watched too (helpers/connection-watch.ts): OpenClaw reaches
// nothing but the model endpoint, whichever provider it speaks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectEngine, type UnitBackend } from '../../../runner/src/engine/index.js';
import { DEFAULT_IMAGE } from '../../../runner/src/image/index.js';
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
}

const CASES: Record<string, ProviderCase> = {
  anthropic: {
    agent: { name: 'openclaw', shell: openclawShell('anthropic'), provider: 'anthropic', model: 'claude-sonnet-4-5', flags: ['--thinking', 'low'] },
    path: /^\/v1\/messages$/,
    keyHeader: 'x-api-key',
  },
  google: {
    agent: { name: 'openclaw', shell: openclawShell('gemini'), provider: 'google', model: 'gemini-2.5-flash', flags: ['--thinking', 'low'] },
    path: /^\/v1beta\/models\/gemini-2\.5-flash:streamGenerateContent$/,
    keyHeader: 'x-goog-api-key',
  },
  openai: {
    agent: { name: 'openclaw', shell: openclawShell('openai-responses'), provider: 'openai', model: 'gpt-5.1', flags: ['--thinking', 'low'] },
    path: /^\/v1\/responses$/,
    keyHeader: 'authorization',
  },
  openrouter: {
    agent: { name: 'openclaw', shell: openclawShell('openai-chat'), provider: 'openrouter', model: 'anthropic/claude-sonnet-4.5', flags: ['--thinking', 'low'] },
    path: /^\/v1\/chat\/completions$/,
    keyHeader: 'authorization',
  },
};

let engine: UnitBackend;
const runs = new Map<string, { run: DrivenRun & { key: string } }>();
/** The containers of both runs (one image): which is which does not matter to the watch. */
let containers: WatchedContainer[] = [];

beforeAll(async () => {
  engine = await connectEngine();
  const layer = await agentLayer(engine, image, 'openclaw');
  const watch = watchConnections((await engine.describe()).endpoint.replace(/^unix:\/\//, ''), layer.tag);
  const play = samplePlay(SAMPLES.single);
  try {
    // A turn of OpenClaw takes minutes on a busy 2-core machine: the scenario's time limit is the suite's slow one.
    const done = await Promise.all(Object.values(CASES).map((c) => runAgentOnce(image, c.agent, { scenario: scenarioFile(SAMPLES.single), plays: play, flags: ['--timeout', '900'] })));
    Object.keys(CASES).forEach((k, i) => runs.set(k, { run: done[i]! }));
  } finally {
    containers = await watch.stop();
  }
}, 1_200_000);

afterAll(async () => {
  await engine?.close();
});

describe.each(Object.keys(CASES))('openclaw with the %s provider (real container, streaming double)', (provider) => {
  const c = CASES[provider]!;

  it('the sample is judged PASS', () => {
    const { run } = runs.get(provider)!;
    const [r] = readResults(run.dir);
    expect(r!.failure_reasons ?? r!.error ?? null, run.err).toBeNull();
    expect(r!.status).toBe('pass');
    expect(r!.agent).toMatchObject({ name: 'openclaw' });
  });

  it("OpenClaw spoke the provider's own API, streaming, offered exec only, and sent the key it was given", () => {
    const { run } = runs.get(provider)!;
    expect(run.fake.requests.length).toBeGreaterThan(0);
    for (const q of run.fake.requests) {
      expect(q.path).toMatch(c.path);
      expect(q.stream).toBe(true);
      expect(String(q.headers[c.keyHeader])).toContain(run.key);
    }
    expect(readRequest(c.agent.shell.format, run.fake.requests[0]!.body).tools).toEqual(['exec']);
  });

  it("every app command ran through exec and its output came back in the provider's format", () => {
    const { run } = runs.get(provider)!;
    const calls = shellExchanges(c.agent.shell.format, run.fake.requests.at(-1)!.body, 'exec');
    expect(calls.map((x) => x.args.command)).toEqual(samplePlay(SAMPLES.single)[0]!.commands);
    expect(calls[0]!.result).toMatch(/ececbe590b923620bc5384dc4ef7bd0e|cart/i);
    expect(calls[1]!.result).toMatch(/order_id/);
  });

  it("the report's agent tokens are what the double billed", () => {
    const { run } = runs.get(provider)!;
    const billed = run.fake.billing();
    const agent = readReport(run.dir).overall.usage.agent;
    expect(agent).toMatchObject({ llm_calls: billed.responses, output: billed.output });
    expect(agent.input + agent.cache_read + agent.cache_write).toBe(billed.input + billed.cacheRead + billed.cacheWrite);
  });

});

describe('openclaw reaches nothing but the model endpoint (connection tracking, every provider)', () => {
  it("each run's container reached its gateway for its model calls, and nothing else", () => {
    expect(containers).toHaveLength(Object.keys(CASES).length);
    for (const c of containers) {
      expect(flowsTo(c, 'BASE_URL').length).toBeGreaterThan(0);
      expect(strayFlows(c)).toEqual([]);
    }
  });
});
