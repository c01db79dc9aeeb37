// pass@N and --retry with a third-party agent: Claude Code (the fastest of the four to start a
// turn) run by `gaia2-runner run-dataset --agent claude-code --pass-at 2 -j 1` in real
// containers against a scripted Anthropic Messages double.
//   First invocation: run_1 plays the single-turn sample; once its reply went out, the double
//     refuses every later request with a 400 (a provider rejecting the request: no retry
//     helps), so run_2's program fails its turn. Its failure text is the reply, but the
//     gateway's record shows the refused calls in that turn: the run is a provider_error, not
//     a verdict (docs/agents.md, "When the program fails").
//   Second invocation, `--retry`, the double healthy again: only run_2 runs again (run_1's
//     files are not touched), both runs pass, and the report's pass@2 / pass^2 and token
//     counts are those of the two runs that count.
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_IMAGE } from '../../../runner/src/image/index.js';
import { fail, readRequest, type FakeScriptItem, type RecordedRequest } from '../../helpers/fake-llm/index.js';
import { AGENTS } from './helpers/agents-under-test.js';
import { samplePlay, SAMPLES, scenarioFile } from './helpers/agent-samples.js';
import { traffic } from '../helpers/run-dir.js';
import { agentLayerHere, readReport, readResults, runAgentOnce, type AgentUnderTest, type DrivenRun } from './helpers/third-party-run.js';

const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
const claude: AgentUnderTest = AGENTS['claude-code'];
const play = samplePlay(SAMPLES.single);
const [split, id] = SAMPLES.single.split('/') as [string, string];

/** The directory of run N of the sample, relative to the output directory. */
const runDir = (n: number): string => join(`run_${n}`, split, id);

/** result.json of run N (the standing one, not an attempt set aside by --retry). */
const resultFile = (n: number): string => join(out, runDir(n), 'result.json');

/** The HTTP statuses of run N's model calls, from the gateway's traffic record of its container. */
const statuses = (n: number): number[] => traffic(join(out, runDir(n))).filter((l) => l.role === 'agent').map((l) => l.http_status);

/** The requests of a double that started a conversation (the task as the only user text, no tool result yet). */
const conversationsStarted = (reqs: RecordedRequest[]): number =>
  reqs.filter((q) => {
    const items = readRequest('anthropic', q.body).items;
    return items.some((i) => i.kind === 'user' && i.text.includes(play[0]!.when)) && !items.some((i) => i.kind === 'result');
  }).length;

let data: string;
let out: string;
let first: DrivenRun & { key: string };
let retry: DrivenRun & { key: string };
let run1Before: { mtimeMs: number; text: string };
let firstResults: ReturnType<typeof readResults>;
let firstReport: ReturnType<typeof readReport>;
let firstStatuses: number[][];
let refused = 0;

beforeAll(async () => {
  await agentLayerHere(image, claude.name);
  data = mkdtempSync(join(tmpdir(), 'gaia2-e2e-repeats-data-'));
  mkdirSync(join(data, split));
  writeFileSync(join(data, split, `${id}.json`), readFileSync(scenarioFile(SAMPLES.single)));
  out = join(mkdtempSync(join(tmpdir(), 'gaia2-e2e-repeats-')), 'out');
  const args = ['run-dataset', '-d', data, '--pass-at', '2', '-j', '1'];

  let replied = false;
  const refuseAfterFirstRun = (_q: RecordedRequest, driven: FakeScriptItem): FakeScriptItem => {
    if (replied) return (refused++, fail(400));
    if ('text' in driven && driven.text === play[0]!.reply && !driven.toolCalls?.length) replied = true;
    return driven;
  };
  first = await runAgentOnce(image, claude, { args, out, plays: play, filter: refuseAfterFirstRun });
  run1Before = { mtimeMs: statSync(resultFile(1)).mtimeMs, text: readFileSync(resultFile(1), 'utf8') };
  firstResults = readResults(out);
  firstReport = readReport(out);
  firstStatuses = [statuses(1), statuses(2)];
  retry = await runAgentOnce(image, claude, { args, out, plays: play, flags: ['--retry'] });
}, 1_200_000);

describe('pass@2 with Claude Code: one run passes, the other ends in an error when the provider refuses', () => {
  it('run_1 is judged PASS, run_2 is a provider error (the program failed on the 400s the record shows); the exit code says so', () => {
    // The gateway's record of each container: run_1 answered, every call of run_2 refused.
    expect(firstStatuses[0]!.length).toBeGreaterThan(0);
    expect(new Set(firstStatuses[0])).toEqual(new Set([200]));
    expect(refused, first.err).toBeGreaterThan(0);
    expect(firstStatuses[1]).toEqual(Array(refused).fill(400));
    expect(firstResults.map((r) => [r.scenario_id, r.run_index, r.status, r.error_kind ?? null]).sort()).toEqual([
      [id, 1, 'pass', null],
      [id, 2, 'error', 'provider_error'],
    ]);
    const run2 = firstResults.find((r) => r.run_index === 2)!;
    // The program's failure was its turn's reply (the daemon recorded it); the record decided.
    expect((run2.daemon_status as { agent_failures?: Array<{ turn: number }> }).agent_failures?.map((f) => f.turn)).toEqual([1]);
    expect(run2.error).toMatch(/^the agent's program failed turn 1 while its provider failed: the model gateway's record shows \d+ failed agent calls? in that turn \(#\d+ to anthropic \([^)]+\): HTTP 400 after 1 attempt/);
    expect(run2.provider_failure).toMatchObject({ provider: 'anthropic', status: 400 });
    expect(JSON.parse(run1Before.text).agent?.name).toBe('claude-code');
    expect(first.code).not.toBe(0);
  });

  it("the first report: one pass, one error left out of every denominator, so pass@2 counts no scenario yet", () => {
    expect(firstReport.overall).toMatchObject({ scenarios: 1, runs: 2, passed: 1, failed: 0, errors: 1, errors_by_kind: { provider_error: 1 }, program_failed: 0, success_rate: 1 });
    expect(firstReport.overall.pass_at_k['1']).toEqual({ value: 1, scenarios_counted: 1 });
    expect(firstReport.overall.pass_at_k['2']?.scenarios_counted ?? 0).toBe(0);
  });
});

describe('--retry runs only the run without a verdict, and the report counts the runs that stand', () => {
  it('the retry started one conversation only: run_2', () => {
    expect(retry.code, retry.err).toBe(0);
    expect(conversationsStarted(retry.fake.requests)).toBe(1);
  });

  it("run_1's result is untouched; run_2's new container was answered; both runs now pass", () => {
    expect(statSync(resultFile(1)).mtimeMs).toBe(run1Before.mtimeMs);
    expect(readFileSync(resultFile(1), 'utf8')).toBe(run1Before.text);
    expect(new Set(statuses(2))).toEqual(new Set([200]));
    const results = readResults(out);
    expect(results.map((r) => [r.scenario_id, r.run_index, r.status, r.error ?? null]).sort()).toEqual([
      [id, 1, 'pass', null],
      [id, 2, 'pass', null],
    ]);
  });

  it('the report: two runs, two passes, pass@1 = pass@2 = pass^2 = 1, no errors', () => {
    const { overall } = readReport(out);
    expect(overall).toMatchObject({ scenarios: 1, runs: 2, passed: 2, failed: 0, errors: 0 });
    expect(overall.pass_at_k['1']?.value).toBe(1);
    expect(overall.pass_at_k['2']).toEqual({ value: 1, scenarios_counted: 1 });
    expect(overall.pass_hat_k['2']).toEqual({ value: 1, scenarios_counted: 1 });
    expect(overall.per_run.map((p) => [p.run, p.passed])).toEqual([
      [1, 1],
      [2, 1],
    ]);
  });

  it("the report's agent tokens are the two standing runs' (run_1's from the first double, run_2's from the retry's)", () => {
    const agent = readReport(out).overall.usage.agent;
    const a = first.fake.billing();
    const b = retry.fake.billing();
    expect(agent).toMatchObject({ llm_calls: a.responses + b.responses, output: a.output + b.output, runs: 2 });
    expect(agent.input + agent.cache_read + agent.cache_write).toBe(a.input + a.cacheRead + a.cacheWrite + b.input + b.cacheRead + b.cacheWrite);
  });
});
