// Agent2Agent in the real world daemon, in-process, with a scripted provider on 127.0.0.1:
// the main agent's `shopping expert-agent` runs an app agent whose tool calls become agent
// actions on the real Shopping app, followed by the expert_agent line; the app's other
// commands are gone for the main agent; a failing app-agent provider ends the run as an error.
import { afterEach, describe, expect, it } from 'vitest';
import { call, fail, say, type FakeLlm, type FakeScriptItem } from '../../helpers/fake-llm/index.js';
import { A2A_KEY, a2aShoppingWorld, BOTTLE_ITEM as ITEM } from '../../helpers/a2a-world.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_TOOL_AUGMENTATION, type NoiseSettings } from '../../../agent-image/src/contract/noise.js';

const TASK = 'Buy two of the black 750ml bottle with code HYDRATE5.';

let fake: FakeLlm | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

async function a2aWorld(script: FakeScriptItem[]) {
  const w = await a2aShoppingWorld(script);
  fake = w.fake;
  return w;
}

describe('Agent2Agent gate', () => {
  it('runs the app agent for expert-agent: its actions, then the expert_agent line, are agent lines', async () => {
    const w = await a2aWorld([
      call('shopping__add_to_cart', { item_id: ITEM, quantity: 2 }),
      call('shopping__checkout', { discount_code: 'HYDRATE5' }),
      say('task completed'),
    ]);
    expect(w.appAgents).toEqual(['Shopping']);
    expect(w.world.appAgentClis).toEqual(['shopping']);
    expect((w.world.status as { app_agents?: string[] }).app_agents).toEqual(['Shopping']);

    const r = await w.world.agentCli(['shopping', 'expert-agent', '--task', TASK]);
    expect(r).toMatchObject({ exitCode: 0, stdout: 'task completed\n' });

    const agentLines = w.lines().filter((l) => l.app !== 'AgentUserInterface');
    expect(agentLines.map((l) => [l.app, l.fn, l.w])).toEqual([
      ['ShoppingApp', 'add_to_cart', true],
      ['ShoppingApp', 'checkout', true],
      ['ShoppingApp', 'expert_agent', false],
    ]);
    expect(agentLines[1]!.args).toEqual({ discount_code: 'HYDRATE5' });
    expect(agentLines[2]).toMatchObject({ args: { task: TASK }, ret: 'task completed' });
    expect(agentLines.every((l) => l.event_id === undefined)).toBe(true);

    // The app agent's model saw only this app's commands, the task in the user-interface form, and its own instructions.
    const first = fake!.requests[0]!.body;
    const toolNames: string[] = first.tools.map((t: { function: { name: string } }) => t.function.name);
    expect(toolNames.length).toBeGreaterThan(3);
    expect(toolNames.every((n) => n.startsWith('shopping__'))).toBe(true);
    expect(toolNames).not.toContain('shopping__expert_agent');
    expect(first.messages[0].content).toMatch(/expert agent of the user's Shopping app/);
    expect(first.messages[1].content).toMatch(/^Received at: 2025-10-09 \d\d:\d\d:\d\d\nSender: User\nMessage: Buy two/);
    expect(first.model).toBe('fake-app-agent');

    // Every call is traced with its app agent; the key never appears.
    const trace = w.trace();
    expect(trace).toHaveLength(3);
    expect(trace.every((l) => l.app_agent.call === 1 && l.app_agent.app === 'Shopping' && l.app_agent.cli === 'shopping')).toBe(true);
    expect(JSON.stringify(trace)).not.toContain(A2A_KEY);
    // Usage reaches the daemon status as the app agents' own (the main agent made no call);
    // `usage` keeps the sum of every caller for runners that read only it.
    const status = w.world.status;
    const traced = trace.reduce((s, l) => s + (l.usage?.input_tokens ?? 0), 0);
    expect(traced).toBeGreaterThan(0);
    expect(status.app_agents_usage?.input_tokens).toBe(traced);
    expect(status.agent_usage).toBeUndefined();
    expect(status.usage?.input_tokens).toBe(traced);
  });

  it('offers the main agent only expert-agent for an app an app agent operates', async () => {
    const w = await a2aWorld([]);
    const help = await w.world.agentCli(['shopping', '--help']);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toMatch(/expert-agent/);
    expect(help.stdout).not.toMatch(/checkout/);
    const direct = await w.world.agentCli(['shopping', 'checkout', '--discount-code', 'HYDRATE5']);
    expect(direct.exitCode).toBe(2);
    expect(direct.stderr).toMatch(/No such command/);
    const missing = await w.world.agentCli(['shopping', 'expert-agent']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toMatch(/--task/);
    expect(fake!.requests).toHaveLength(0);
    expect(w.lines().filter((l) => l.app !== 'AgentUserInterface')).toEqual([]);
  });

  it('ends the run as a provider error when the app agent cannot reach its model', async () => {
    const w = await a2aWorld([fail(401)]);
    const r = await w.world.agentCli(['shopping', 'expert-agent', '--task', TASK]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/could not reach its model \(auth\)/);
    const status = await w.world.finished();
    expect(status.status).toBe('error');
    expect(status.error_kind).toBe('provider_error');
    expect(status.reason).toMatch(/Shopping app agent's model call failed/);
  });

  describe('with the Noise phase on too', () => {
    const renames = { Shopping__add_to_cart: 'Shopping__put_in_basket' };
    const noise = (p: number): NoiseSettings => ({ tool_augmentation: { ...DEFAULT_TOOL_AUGMENTATION, tool_failure_probability: p }, env_events: null });

    it("the app agent uses the app's own command names while the main agent sees the renamed ones", async () => {
      const w = await a2aShoppingWorld([call('shopping__add_to_cart', { item_id: ITEM, quantity: 2 }), say('added')], undefined, { noise: noise(0), renames });
      fake = w.fake;
      expect((await w.world.agentCli(['shopping', 'expert-agent', '--task', TASK])).exitCode).toBe(0);
      expect(w.lines().filter((l) => l.app === 'ShoppingApp').map((l) => l.fn)).toEqual(['add_to_cart', 'expert_agent']);
      // what the app agent's command answered: no "No such command"
      const toolResult = JSON.stringify(w.fake.requests.at(-1));
      expect(toolResult).not.toMatch(/No such command/);
    });

    it("the app's tool failures reach the app agent too, recorded as the main agent's are", async () => {
      const w = await a2aShoppingWorld([call('shopping__add_to_cart', { item_id: ITEM, quantity: 2 }), say('it failed')], undefined, { noise: noise(1), renames });
      fake = w.fake;
      expect((await w.world.agentCli(['shopping', 'expert-agent', '--task', TASK])).exitCode).toBe(0);
      expect(w.lines().filter((l) => l.app === 'ShoppingApp').map((l) => l.fn)).toEqual(['expert_agent']);
      const noiseLines = readFileSync(join(w.stateDir, 'noise.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      expect(noiseLines.filter((r) => r.kind === 'tool_failure').map((r) => r.tool)).toEqual(['Shopping__add_to_cart']);
    });
  });
});
