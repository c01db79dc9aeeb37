// The Noise phase with the built-in LLM agent in a real container, driven by a scripted
// provider: the first add-to-cart fails with the reference's error, the model sees that error
// in its tool result and retries, and the run is judged a pass; the failed call left no event.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appForCli } from '../../agent-image/src/apps/catalog.js';
import { DEFAULT_TOOL_AUGMENTATION, parseEventsJsonl } from '@gaia2/contract';
import { ToolNoise } from '../../agent-image/src/noise/index.js';
import { DEFAULT_IMAGE } from '../../runner/src/image/index.js';
import { call } from '../helpers/fake-llm/index.js';
import { SHELL_TOOL_NAME } from '../../agent-image/src/agents/default/shell-tool.js';
import { oraclePlay, scriptFor, shellLine } from './helpers/oracle-llm-script.js';
import { runWithFakeLlm } from './helpers/llm-run.js';
import { useEngine } from './helpers/engine.js';

const root = join(import.meta.dirname, '..', '..');
const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
const scenario = join(root, 'examples/scenarios/execution/exec_shopping_bottle_order.json');
const play = oraclePlay(join(root, 'test/fixtures/golden/cases/exec_shopping_bottle_order/oracle.events.jsonl'));
const engine = useEngine();

describe('Noise phase with the LLM agent (real container, scripted provider)', () => {
  it('a failed command reaches the model as a tool error; its retry passes', async () => {
    const add = play.actions.find((a) => a.command.fn === 'add_to_cart')!;
    const checkout = play.actions.find((a) => a.command.fn === 'checkout')!;
    // argv as the CLI gets it from the shell line (the quotes are the shell's).
    const argv = (a: typeof add) => shellLine(a).split(' ').map((w) => w.replace(/^'(.*)'$/, '$1'));
    const ta = { ...DEFAULT_TOOL_AUGMENTATION, tool_failure_probability: 0.5 };
    const sc = JSON.parse(readFileSync(scenario, 'utf8'));
    const shopping = appForCli('shopping')!;
    const seed = [...Array(200).keys()].find((s) => {
      const t = new ToolNoise({ ...ta, seed: s }, sc);
      return t.draw(argv(add), shopping) !== null && t.draw(argv(add), shopping) === null && t.draw(argv(checkout), shopping) === null;
    })!;
    // The oracle's play with the add-to-cart said twice: the retry after the failure.
    const script = scriptFor(play, 'shell');
    script.splice(play.actions.indexOf(add) + 1, 0, call(SHELL_TOOL_NAME, { command: shellLine(add) }));
    const run = await runWithFakeLlm(engine(), image, scenario, 'sk-noise-llm-key-123456', {
      format: 'anthropic',
      tools: 'shell',
      stream: false,
      script,
      noise: { env_events: null, tool_augmentation: { ...ta, seed } },
    });
    expect(run.result.failure_reasons ?? run.result.error ?? null).toBeNull();
    expect(run.result.status).toBe('pass');
    // The model's next request carried the failure as the tool's result.
    const afterFailure = JSON.stringify(run.fake.requests[1]!.body.messages.at(-1));
    expect(afterFailure).toContain('Calling Shopping__add_to_cart failed with error: Internal error - Retry again later');
    const events = parseEventsJsonl(readFileSync(join(run.dir, 'events.jsonl'), 'utf8'));
    expect(events.filter((e) => e.fn === 'add_to_cart')).toHaveLength(1);
    const noise = readFileSync(join(run.dir, 'noise.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(noise.filter((r) => r.kind === 'tool_failure').map((r) => r.tool)).toEqual(['Shopping__add_to_cart']);
  });
});
