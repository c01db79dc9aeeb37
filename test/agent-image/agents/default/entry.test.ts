// The process entry (agent-image/src/main/agent-default.ts) as the image starts it: settings
// from the environment, the daemon socket from GAIA2_AGENT_SOCKET, exit when the daemon ends.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { call, say, startFakeLlm, type FakeLlm } from '../../../helpers/fake-llm/index.js';
import { startWorld } from './helpers.js';

const ENTRY = new URL('../../../../agent-image/src/main/agent-default.ts', import.meta.url).pathname;
const KEY = 'sk-entry-SECRET-24680';

let fake: FakeLlm | undefined;
let server: net.Server | undefined;
afterEach(async () => {
  await fake?.close();
  server?.close();
});

const world = async () => {
  const w = await startWorld();
  server = w.server;
  return w;
};

function startAgent(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', ENTRY], {
    env: { PATH: process.env.PATH ?? '', HOME: tmpdir(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { exited, stderr: () => stderr };
}

describe('agent-default process', () => {
  it('plays the scenario from its environment and exits 0 when the daemon ends', async () => {
    const w = await world();
    fake = await startFakeLlm({ format: 'openai-chat', script: [call('current_time', {}), say('All done.')] });
    const traceFile = join(w.dir, 'trace.jsonl');
    const agent = startAgent({
      PROVIDER: 'openai-compat',
      MODEL: 'local-model',
      API_KEY: KEY,
      BASE_URL: fake.url,
      THINKING: 'low',
      MAX_TOKENS: '1000',
      GAIA2_AGENT_TOOLS: 'functions',
      GAIA2_AGENT_SOCKET: w.socketPath,
      GAIA2_TRACE_FILE: traceFile,
    });
    const status = await w.world.finished();
    expect(await agent.exited).toBe(0);
    expect(w.replies.map((r) => [r.content, r.state])).toEqual([['All done.', 'final']]);
    // Token use reached the daemon (fake server: 101+102 in, 11+12 out).
    expect(status.usage).toEqual({ input_tokens: 203, output_tokens: 23 });
    expect(status.agent_usage).toEqual({ input_tokens: 203, output_tokens: 23 });
    expect(status.app_agents_usage).toBeUndefined();
    const body = fake.requests[0]!.body;
    expect(body).toMatchObject({ model: 'local-model', max_tokens: 1000, reasoning_effort: 'low' });
    // The simulated time, not the wall clock, answers current_time.
    expect(JSON.stringify(fake.requests[1]!.body.messages)).toContain(status.sim_time?.slice(0, 10) ?? 'no sim_time');
    const trace = readFileSync(traceFile, 'utf8');
    expect(trace.trim().split('\n')).toHaveLength(2);
    expect(trace).not.toContain(KEY);
    expect(agent.stderr()).not.toContain(KEY);
    expect(agent.stderr()).toContain('2 LLM call(s)');
  });

  it('takes the key from GAIA2_AGENT_SECRETS_FILE (then deletes it) instead of the environment', async () => {
    const w = await world();
    fake = await startFakeLlm({ format: 'anthropic', script: [say('Done.')] });
    const secrets = join(w.dir, 'secrets.json');
    writeFileSync(secrets, JSON.stringify({ API_KEY: KEY }));
    const agent = startAgent({ PROVIDER: 'anthropic', MODEL: 'claude-test', BASE_URL: fake.url, GAIA2_AGENT_SECRETS_FILE: secrets, GAIA2_AGENT_SOCKET: w.socketPath });
    await w.world.finished();
    expect(await agent.exited).toBe(0);
    expect(fake.requests[0]!.headers['x-api-key']).toBe(KEY);
    expect(existsSync(secrets)).toBe(false);
    expect(w.replies.map((r) => r.content)).toEqual(['Done.']);
  });

  it('misconfigured: answers the run with an error naming the variable, exits 2', async () => {
    const w = await world();
    const agent = startAgent({ PROVIDER: 'anthropic', MODEL: 'claude', THINKING: 'extreme', GAIA2_AGENT_SOCKET: w.socketPath });
    await w.world.finished();
    expect(await agent.exited).toBe(2);
    expect(w.replies).toHaveLength(1);
    expect(w.replies[0]!.state).toBe('error');
    expect(w.replies[0]!.content).toContain('THINKING must be one of: off, low, medium, high');
  });
});
