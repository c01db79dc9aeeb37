// Calls → ATIF steps on real traces: a two-turn third-party run (the user's second message is
// a user step between the turns' agent steps) and our agent's Agent2Agent run (its expert-agent
// command, with the app agent's answer as the observation).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseEventsJsonl } from '@gaia2/contract';
import { trajectoryOfCalls, validateTrajectory } from '../../../runner/src/atif/index.js';
import { parseTraceJsonl } from '../../../runner/src/trace/index.js';
import { FIXTURES } from '../../helpers/recorded-runs.js';

const facts = { sessionId: 'run/s', agent: { name: 'agent', version: '1' }, extra: {} };

describe('trajectoryOfCalls', () => {
  it("a two-turn run: each of the user's messages, in order, before the answers it got", () => {
    const dir = join(FIXTURES, 'third-party-multi-turn');
    const calls = parseTraceJsonl(gunzipSync(readFileSync(join(dir, 'trace.jsonl.gz'))).toString('utf8')).calls;
    const t = trajectoryOfCalls(calls, facts)!;
    expect(validateTrajectory(t)).toEqual([]);
    const said = parseEventsJsonl(readFileSync(join(dir, 'events.jsonl'), 'utf8'))
      .filter((e) => e.fn === 'send_message_to_agent')
      .map((e) => String((e.args as { content: string }).content));
    expect(said).toHaveLength(2);
    const users = t.steps.filter((s) => s.source === 'user');
    expect(users).toHaveLength(2);
    users.forEach((u, i) => expect(u.message.endsWith(said[i]!)).toBe(true));
    // Turn 1 asks which invoice; the second message comes after that answer, before the forward.
    const second = t.steps.indexOf(users[1]!);
    expect(t.steps[second - 1]).toMatchObject({ source: 'agent', message: expect.stringContaining('Which one') });
    const forward = t.steps.slice(second).find((s) => s.tool_calls?.some((c) => JSON.stringify(c.arguments).includes('forward-email')))!;
    expect(forward.observation?.results).toHaveLength(1);
    expect(t.steps.at(-1)).toMatchObject({ source: 'agent', message: expect.stringContaining('Forwarded') });
    expect(t.steps[0]!.source).toBe('system');
    expect(t.final_metrics?.total_steps).toBe(t.steps.length);
  });

  it("our agent's Agent2Agent run: the expert-agent command and the app agent's answer", () => {
    const calls = parseTraceJsonl(readFileSync(join(FIXTURES, 'usage', 'a2a-run', 'trace.jsonl'), 'utf8')).calls;
    const t = trajectoryOfCalls(calls, facts)!;
    expect(validateTrajectory(t)).toEqual([]);
    const step = t.steps.find((s) => s.tool_calls?.length)!;
    expect(step.tool_calls![0]).toMatchObject({ function_name: 'shell', arguments: { command: expect.stringMatching(/^shopping expert-agent --task/) } });
    expect(step.observation!.results[0]).toEqual({ source_call_id: step.tool_calls![0]!.tool_call_id, content: expect.any(String) });
    // Tokens per step are the trace's own usage field: the sum is what the trace holds.
    const traced = readFileSync(join(FIXTURES, 'usage', 'a2a-run', 'trace.jsonl'), 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { usage: { input_tokens: number; output_tokens: number } }).usage);
    expect(t.final_metrics).toMatchObject({ total_prompt_tokens: traced.reduce((n, u) => n + u.input_tokens, 0), total_completion_tokens: traced.reduce((n, u) => n + u.output_tokens, 0) });
  });

  it('is null when no call was answered', () => {
    expect(trajectoryOfCalls([], facts)).toBeNull();
  });
});
