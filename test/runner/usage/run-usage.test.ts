import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { usageOfRun, usageOfTrace } from '../../../runner/src/usage/run-usage.js';
import type { DaemonStatus } from '@gaia2/contract';

const root = join(import.meta.dirname, '..', '..', '..');
const line = (o: Record<string, unknown>) => JSON.stringify(o);

describe('usage of one run', () => {
  it('sums our trace lines (usage field), counting calls without usage (errors) as calls', () => {
    const text = [
      line({ seq: 1, url: 'http://x/v1/messages', http_status: 429, request: { model: 'claude-sonnet-4' }, raw_response: '{"error":{}}', usage: null }),
      line({ seq: 2, url: 'http://x/v1/messages', http_status: 200, request: { model: 'claude-sonnet-4' }, raw_response: '{}', usage: { input_tokens: 100, output_tokens: 5, cache_read_tokens: 60, cache_write_tokens: 20 } }),
      '{"torn',
    ].join('\n');
    expect(usageOfTrace(text, 'fallback')).toEqual({ model: 'claude-sonnet-4', source: 'trace', llm_calls: 2, input_tokens: 100, output_tokens: 5, cache_read_tokens: 60, cache_write_tokens: 20 });
  });

  it('reads usage off the response body of a trace another writer made (no usage field)', () => {
    const raw = JSON.stringify({ model: 'gpt-4o', choices: [{ message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }], usage: { prompt_tokens: 50, completion_tokens: 7, prompt_tokens_details: { cached_tokens: 30 } } });
    const text = line({ url: 'https://api.openai.com/v1/chat/completions', request: { model: 'gpt-4o', messages: [] }, raw_response: raw });
    expect(usageOfTrace(text, null)).toMatchObject({ model: 'gpt-4o', llm_calls: 1, input_tokens: 50, output_tokens: 7, cache_read_tokens: 30 });
  });

  it('agent from trace.jsonl, judge from judge_trace.jsonl; top level is their sum', () => {
    const t = (n: number) => Buffer.from(line({ url: 'u', request: { model: 'm' }, raw_response: '{}', usage: { input_tokens: n, output_tokens: 1, cache_read_tokens: 0, cache_write_tokens: 0 } }));
    const u = usageOfRun(new Map([['trace.jsonl', t(10)], ['judge_trace.jsonl', t(7)]]), null, { MODEL: 'x', GAIA2_JUDGE_MODEL: 'y' })!;
    expect(u).toMatchObject({ input_tokens: 17, output_tokens: 2, llm_calls: 2, agent: { input_tokens: 10, model: 'm' }, judge: { input_tokens: 7, model: 'm' } });
  });

  it('without a trace, the agent totals come from daemon_status.usage (real shape), marked as reported by the agent', () => {
    const real = JSON.parse(readFileSync(join(root, 'test/fixtures/usage/real-results.json'), 'utf8')).llm_agent.daemon_status_usage;
    const status = { status: 'completed', usage: real } as unknown as DaemonStatus;
    expect(usageOfRun(new Map(), status, { MODEL: 'claude-sonnet-4' })).toEqual({
      input_tokens: real.input_tokens, output_tokens: real.output_tokens, cache_read_tokens: real.cache_read_tokens, cache_write_tokens: 0,
      agent: { model: 'claude-sonnet-4', source: 'agent_report', input_tokens: real.input_tokens, output_tokens: real.output_tokens, cache_read_tokens: real.cache_read_tokens },
    });
    expect(usageOfRun(new Map([['trace.jsonl', Buffer.from('')]]), { status: 'completed' } as unknown as DaemonStatus, {})).toBeUndefined();
  });

  it("Agent2Agent: the app agents' calls are a role of their own, in the totals; without a trace each role's reported usage", () => {
    // A real agent2agent run (the gaia2-run e2e): the main agent's and the Shopping app agent's traces.
    const dir = join(root, 'test/fixtures/usage/a2a-run');
    const file = (f: string) => readFileSync(join(dir, f));
    const status = JSON.parse(file('daemon_status.json').toString('utf8')) as DaemonStatus & { usage: { input_tokens: number; output_tokens: number } };
    const env = { MODEL: 'fake-phases', GAIA2_A2A: JSON.stringify({ app_prop: 1, provider: 'openai-compat', model: 'app-model' }) };
    const u = usageOfRun(new Map([['trace.jsonl', file('trace.jsonl')], ['app_agents_trace.jsonl', file('app_agents_trace.jsonl')]]), status, env)!;
    expect(u.agent).toMatchObject({ source: 'trace', llm_calls: 2 });
    expect(u.app_agents).toMatchObject({ source: 'trace', llm_calls: 3, model: 'fake-phases' });
    // The daemon adds both up as they happen: the two traces together are its sum.
    expect([u.input_tokens, u.output_tokens, u.llm_calls]).toEqual([status.usage.input_tokens, status.usage.output_tokens, 5]);
    expect(u.agent!.input_tokens + u.app_agents!.input_tokens).toBe(status.usage.input_tokens);
    // No trace of a role: its part is what the daemon reports for it apart (no subtraction).
    const split = JSON.parse(file('daemon_status_split.json').toString('utf8')) as DaemonStatus;
    const noMain = usageOfRun(new Map([['app_agents_trace.jsonl', file('app_agents_trace.jsonl')]]), split, env)!;
    expect(noMain.agent).toEqual({ model: 'fake-phases', source: 'agent_report', input_tokens: u.agent!.input_tokens, output_tokens: u.agent!.output_tokens, cache_read_tokens: 0 });
    expect(noMain.app_agents).toMatchObject({ source: 'trace', input_tokens: u.app_agents!.input_tokens });
    const noTraces = usageOfRun(new Map(), split, env)!;
    expect(noTraces.agent).toMatchObject({ source: 'agent_report', input_tokens: u.agent!.input_tokens, output_tokens: u.agent!.output_tokens });
    expect(noTraces.app_agents).toEqual({ model: 'app-model', source: 'agent_report', input_tokens: u.app_agents!.input_tokens, output_tokens: u.app_agents!.output_tokens, cache_read_tokens: 0 });
    expect(noTraces.input_tokens).toBe(status.usage.input_tokens);
    // An image from before the split states only the sum: it is the agent's, as that image meant it.
    const old = usageOfRun(new Map(), status, env)!;
    expect(old.agent).toMatchObject({ source: 'agent_report', input_tokens: status.usage.input_tokens });
    expect(old.app_agents).toBeUndefined();
    // …and with the app agents' trace but no agent trace, the app agents are not counted twice.
    const oldNoMain = usageOfRun(new Map([['app_agents_trace.jsonl', file('app_agents_trace.jsonl')]]), status, env)!;
    expect(oldNoMain.agent).toMatchObject({ source: 'agent_report', input_tokens: u.agent!.input_tokens, output_tokens: u.agent!.output_tokens });
    expect(oldNoMain.input_tokens).toBe(status.usage.input_tokens);
    // A trace line without a model takes the app agents' model from GAIA2_A2A.
    const bare = Buffer.from(line({ url: 'u', request: {}, raw_response: '{}', usage: { input_tokens: 3, output_tokens: 1 } }));
    expect(usageOfRun(new Map([['app_agents_trace.jsonl', bare]]), null, env)!.app_agents).toMatchObject({ model: 'app-model', input_tokens: 3 });
  });
});
