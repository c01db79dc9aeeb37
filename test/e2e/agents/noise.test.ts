// The Noise phase with a third-party agent: Claude Code (the fastest of the four to start a
// turn) run by `gaia2-runner run --agent claude-code --noise` in a real container against a
// scripted Anthropic Messages double that drives its Bash tool, judged as runs of our own agent
// are (test/e2e/noise-llm.test.ts): a seed whose first add-to-cart fails; the failure's text
// reaches the model as the Bash result, the model retries, the run passes with one add_to_cart
// event. (Agent2Agent with every agent: agent2agent.test.ts.)
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { appForCli } from '../../../agent-image/src/apps/catalog.js';
import { DEFAULT_TOOL_AUGMENTATION, parseEventsJsonl } from '@gaia2/contract';
import { ToolNoise } from '../../../agent-image/src/noise/index.js';
import { DEFAULT_IMAGE } from '../../../runner/src/image/index.js';
import { shellExchanges } from '../../helpers/fake-llm/index.js';
import { onlyFile } from '../helpers/run-dir.js';
import { AGENTS } from './helpers/agents-under-test.js';
import { samplePlay, SAMPLES, scenarioFile } from './helpers/agent-samples.js';
import { agentLayerHere, readResults, runAgentOnce, type AgentUnderTest, type DrivenRun } from './helpers/third-party-run.js';

const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
const claude: AgentUnderTest = AGENTS['claude-code'];
const FAILURE = 'Calling Shopping__add_to_cart failed with error: Internal error - Retry again later';

const [turn] = samplePlay(SAMPLES.single);
const [add, checkout] = turn!.commands as [string, string];
/** argv of a shell line as the CLI gets it (the single quotes are the shell's). */
const argv = (line: string): string[] => line.split(' ').map((w) => w.replace(/^'(.*)'$/, '$1'));

/** The Noise seed (tool failures and background events) whose first add-to-cart fails and nothing after it. */
function failingFirstSeed(probability: number): number {
  const sc = JSON.parse(readFileSync(scenarioFile(SAMPLES.single), 'utf8'));
  const shopping = appForCli('shopping')!;
  const seed = [...Array(200).keys()].find((s) => {
    const t = new ToolNoise({ ...DEFAULT_TOOL_AUGMENTATION, tool_failure_probability: probability, seed: s }, sc);
    return t.draw(argv(add), shopping) !== null && t.draw(argv(add), shopping) === null && t.draw(argv(checkout), shopping) === null;
  });
  if (seed === undefined) throw new Error('no seed fails the first add-to-cart only');
  return seed;
}

const jsonLines = (text: string): Array<Record<string, any>> => text.trim().split('\n').map((l) => JSON.parse(l));

/** Every Bash call of the run with the output that came back, in order, from the double's last request. */
const bashCalls = (r: DrivenRun) => shellExchanges('anthropic', r.fake.requests.at(-1)!.body, 'Bash').map((x) => ({ command: String(x.args.command), result: x.result }));


let noise: DrivenRun;

beforeAll(async () => {
  await agentLayerHere(image, claude.name);
  const probability = 0.5;
  // The oracle's play with the add-to-cart said twice: the retry after the failure.
  noise = await runAgentOnce(image, claude, {
    scenario: scenarioFile(SAMPLES.single),
    plays: [{ ...turn!, commands: [add, add, checkout] }],
    flags: ['--noise', '--noise-seed', String(failingFirstSeed(probability)), '--tool-failure-probability', String(probability)],
  });
}, 900_000);

describe('Noise phase with claude-code (real containers, Anthropic double)', () => {
  it('the injected failure came back to the model as the Bash output; the retry passed', () => {
    const [r] = readResults(noise.dir);
    expect(r!.failure_reasons ?? r!.error ?? null, noise.err).toBeNull();
    expect(r!.status).toBe('pass');
    const calls = bashCalls(noise);
    expect(calls.map((c) => c.command)).toEqual([add, add, checkout]);
    expect(calls[0]!.result).toContain(FAILURE);
    expect(calls[1]!.result).not.toContain('failed with error');
    expect(calls[2]!.result).toMatch(/order_id/);
  });

  it('the failed call left no event; noise.jsonl records it and the background events of the phase', () => {
    const events = parseEventsJsonl(onlyFile(noise.dir, 'events.jsonl'));
    expect(events.filter((e) => e.fn === 'add_to_cart')).toHaveLength(1);
    const records = jsonLines(onlyFile(noise.dir, 'noise.jsonl'));
    expect(records.filter((x) => x.kind === 'tool_failure').map((x) => [x.tool, x.message])).toEqual([['Shopping__add_to_cart', FAILURE]]);
    expect(records.filter((x) => x.kind === 'env_event').length).toBeGreaterThan(0);
    expect(JSON.parse(onlyFile(noise.dir, 'run_config.json')).noise).toMatchObject({ tool_augmentation: { tool_failure_probability: 0.5 } });
  });
});
