// Matching app-agent conversations to the main agent's calls: per tool call, one per
// `expert-agent` in a shell command or one per `<cli>__expert_agent` function call, in order;
// without such tool calls, one per expert_agent event line. Trace lines are real ones, written
// by the world daemon's app agents against a scripted provider.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EventLine } from '@gaia2/contract';
import { appAgentViews, nestAppAgents } from '../../../runner/src/viewer/model/app-agents.js';
import type { TimelineItem } from '../../../runner/src/viewer/model/types.js';
import { eventItems } from '../../../runner/src/viewer/model/timeline.js';
import { a2aShoppingWorld, BOTTLE_ITEM } from '../../helpers/a2a-world.js';
import { call, say } from '../../helpers/fake-llm/index.js';

let traceText = '';
let events: EventLine[] = [];

beforeAll(async () => {
  const traceFile = join(mkdtempSync(join(tmpdir(), 'viewer-a2a-model-')), 'app_agents_trace.jsonl');
  const w = await a2aShoppingWorld(
    [call('shopping__add_to_cart', { item_id: BOTTLE_ITEM, quantity: 2 }), say('added'), say('nothing else to do'), call('shopping__list_cart', {}), say('cart listed')],
    traceFile,
  );
  try {
    for (const task of ['add the bottle', 'anything else?', 'show the cart']) expect((await w.world.agentCli(['shopping', 'expert-agent', '--task', task])).exitCode).toBe(0);
    events = w.lines();
    traceText = readFileSync(traceFile, 'utf8');
  } finally {
    await w.fake.close();
  }
});

const tool = (name: string, input: unknown): Extract<TimelineItem, { k: 'tool' }> => ({ k: 'tool', id: name, name, input, result: '', isError: false, seq: 1 });

describe('appAgentViews', () => {
  it('groups lines by call, with task, answer and the conversation', () => {
    const views = appAgentViews(traceText, events);
    expect(views.map((v) => [v.call, v.app, v.task, v.answer, v.llmCalls])).toEqual([
      [1, 'Shopping', 'add the bottle', 'added', 2],
      [2, 'Shopping', 'anything else?', 'nothing else to do', 1],
      [3, 'Shopping', 'show the cart', 'cart listed', 2],
    ]);
    expect(views[0]!.items.filter((i) => i.k === 'tool').map((i) => (i as { name: string }).name)).toEqual(['shopping__add_to_cart']);
    // A torn last line is skipped, the rest still shows.
    expect(appAgentViews(`${traceText}{"app_agent": {"call": 4`, events)).toHaveLength(3);
  });
});

describe('nestAppAgents', () => {
  it('gives a shell command one conversation per expert-agent in it, in order', () => {
    const views = appAgentViews(traceText, events);
    const items: TimelineItem[] = [
      tool('shell', { command: "shopping expert-agent --task 'add the bottle' && shopping expert-agent --task 'anything else?'" }),
      tool('shell', { command: 'shopping --help' }),
      tool('shopping__expert_agent', { task: 'show the cart' }),
      ...eventItems(events),
    ];
    nestAppAgents(items, views);
    const calls = (i: TimelineItem) => ((i as { appAgents?: Array<{ call: number }> }).appAgents ?? []).map((a) => a.call);
    expect(items.slice(0, 3).map(calls)).toEqual([[1, 2], [], [3]]);
    // Claimed by the tool calls: the event lines stay plain.
    expect(items.slice(3).flatMap(calls)).toEqual([]);
  });

  it('falls back to the expert_agent event lines when no tool call made them', () => {
    const items: TimelineItem[] = eventItems(events);
    nestAppAgents(items, appAgentViews(traceText, events));
    const nested = items.filter((i) => i.k === 'event' && i.appAgents).map((i) => [(i as { fn: string }).fn, (i as { appAgents: Array<{ task: string }> }).appAgents[0]!.task]);
    expect(nested).toEqual([
      ['expert_agent', 'add the bottle'],
      ['expert_agent', 'anything else?'],
      ['expert_agent', 'show the cart'],
    ]);
  });
});
