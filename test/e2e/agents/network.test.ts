// Third-party agents contact nothing but the model endpoint. Each agent plays the single-turn
// sample in full (`gaia2-runner run --agent NAME`, real container, its provider's scripted
// double behind the run's gateway) while every flow its container opens is read from the
// host's connection tracking (helpers/connection-watch.ts): DNS queries, telemetry, update
// checks, logins, package registries would each show up as a flow to somewhere else. Each run
// must pass, its container must be seen talking to the gateway (the watch sees its traffic),
// and to nothing else. The runs are unsealed (`--network open`): a sealed container's filter
// refuses a stray packet before connection tracking lists it, so only an open run shows what
// the program itself tries. OpenClaw is watched in openclaw-providers.test.ts (sealed runs).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectEngine, type UnitBackend } from '../../../runner/src/engine/index.js';
import { DEFAULT_IMAGE } from '../../../runner/src/image/index.js';
import { AGENTS } from './helpers/agents-under-test.js';
import { samplePlay, SAMPLES, scenarioFile } from './helpers/agent-samples.js';
import { flowsTo, strayFlows } from './helpers/connection-watch.js';
import { agentLayer, readResults, type AgentUnderTest } from './helpers/third-party-run.js';
import { watchedRun, type WatchedRun } from './helpers/watched-run.js';

const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
const WATCHED: AgentUnderTest[] = [AGENTS['claude-code'], AGENTS.codex, AGENTS['gemini-cli'], AGENTS.cline, AGENTS['qwen-code'], AGENTS.opencode];

/**
 * Known limits (docs/agents.md, "Nothing but the model endpoint"), traced under strace: Cline
 * 3.0.65 looks up data.cline.bot (its PostHog feature flags; the only switch is its own test
 * mode) and OpenCode 1.18.33 looks up registry.npmjs.org and opens one HTTPS connection to it.
 * A sealed run (the default) refuses both; here, open, they are let through and nothing else.
 */
const KNOWN: Record<string, (f: { proto: string; dport?: number }) => boolean> = {
  cline: (f) => f.proto === 'udp' && f.dport === 53,
  opencode: (f) => (f.proto === 'udp' && f.dport === 53) || (f.proto === 'tcp' && f.dport === 443),
};

let engine: UnitBackend;
const watched = new Map<string, WatchedRun>();

beforeAll(async () => {
  engine = await connectEngine();
  // Layers first, one at a time (builds are heavy); then the three runs at once.
  for (const a of WATCHED) await agentLayer(engine, image, a.name);
  const runs = await Promise.all(WATCHED.map((a) => watchedRun(engine, image, a, { scenario: scenarioFile(SAMPLES.single), plays: samplePlay(SAMPLES.single), flags: ['--network', 'open'] })));
  WATCHED.forEach((a, i) => watched.set(a.name, runs[i]!));
}, 900_000);

afterAll(async () => {
  await engine?.close();
});

describe.each(WATCHED.map((a) => a.name))('%s contacts nothing but the model endpoint (real container, connection tracking)', (name) => {
  it('the sample passes, and its container was seen reaching the gateway for every model call', () => {
    const { run, containers } = watched.get(name)!;
    const [r] = readResults(run.dir);
    expect(r!.failure_reasons ?? r!.error ?? null, run.err).toBeNull();
    expect(r!.status).toBe('pass');
    expect(r!.network_sealed).toBe(false);
    expect(containers).toHaveLength(1);
    expect(run.fake.requests.length).toBeGreaterThan(0);
    expect(flowsTo(containers[0]!, 'BASE_URL').length).toBeGreaterThan(0);
  });

  it('and nothing else: no DNS query, no telemetry, update check, login or registry', () => {
    const [c] = watched.get(name)!.containers;
    const known = KNOWN[name] ?? (() => false);
    expect(strayFlows(c!).filter((f) => !known(f))).toEqual([]);
  });
});
