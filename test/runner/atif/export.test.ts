// ATIF export of real run directories: the four third-party agents' runs (calls from the
// gateway's record, or from the trace.jsonl derived from it) and our own agent's (its own
// trace.jsonl). Every file is checked against Harbor's rules (validate.test.ts tests the check).
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ATIF_SCHEMA_VERSION, exportAtif, validateTrajectory, type AtifTrajectory } from '../../../runner/src/atif/index.js';
import { keepAgentTrace } from '../../../runner/src/run/traffic-trace.js';
import { recordedRunCopies, THIRD_PARTY_AGENTS, THIRD_PARTY_SCENARIO } from '../../helpers/recorded-runs.js';

const copy = recordedRunCopies();
const read = (file: string): AtifTrajectory => JSON.parse(readFileSync(file, 'utf8')) as AtifTrajectory;

describe('exportAtif', () => {
  for (const agent of THIRD_PARTY_AGENTS) {
    it(`${agent}: one valid trajectory, the task, each command with its output, the answer, the record's tokens`, async () => {
      const run = copy(`third-party-runs/${agent}`);
      const r = await exportAtif(run, join(run, 'atif'));
      expect(r.skipped).toEqual([]);
      expect(r.written).toEqual([{ scenario: THIRD_PARTY_SCENARIO, file: join(run, 'atif', THIRD_PARTY_SCENARIO, 'trajectory.json'), steps: expect.any(Number), source: 'model_traffic.jsonl' }]);
      const t = read(r.written[0]!.file);
      expect(validateTrajectory(t)).toEqual([]);
      expect(t.schema_version).toBe(ATIF_SCHEMA_VERSION);
      const result = JSON.parse(readFileSync(join(run, THIRD_PARTY_SCENARIO, 'result.json'), 'utf8')) as { agent: { name: string; version: string }; usage: { agent: { input_tokens: number; output_tokens: number } } };
      expect(t.agent).toMatchObject({ name: agent, version: result.agent.version });
      const agentSteps = t.steps.filter((s) => s.source === 'agent');
      expect(agentSteps).toHaveLength(3);
      // The user's task comes before the first answer, as the program sent it.
      const firstAgent = t.steps.indexOf(agentSteps[0]!);
      expect(t.steps.slice(0, firstAgent).map((s) => s.message).join('\n')).toMatch(/Order two of the black 750ml Insulated Steel Bottles/);
      expect(agentSteps.map((s) => s.tool_calls?.length ?? 0)).toEqual([1, 1, 0]);
      expect(JSON.stringify(agentSteps[0]!.tool_calls![0]!.arguments)).toContain('add-to-cart');
      expect(agentSteps[0]!.observation!.results).toEqual([{ source_call_id: agentSteps[0]!.tool_calls![0]!.tool_call_id, content: expect.stringContaining('"item_id') }]);
      expect(agentSteps[1]!.observation!.results[0]!.content).toContain('order_id');
      expect(agentSteps[2]!.message).toBe('Ordered two black 750ml bottles with HYDRATE5 applied.');
      // Tokens: the record's, which result.json's usage summed (source gateway).
      expect(t.final_metrics).toMatchObject({ total_prompt_tokens: result.usage.agent.input_tokens, total_completion_tokens: result.usage.agent.output_tokens, total_steps: t.steps.length });
      expect(t.extra).toMatchObject({ scenario_id: THIRD_PARTY_SCENARIO, status: 'pass', calls_from: 'model_traffic.jsonl' });
    });
  }

  it('reads a derived trace.jsonl like the record it came from', async () => {
    const run = copy('third-party-runs/claude-code');
    const before = read((await exportAtif(run, join(run, 'a'))).written[0]!.file);
    const dir = join(run, THIRD_PARTY_SCENARIO);
    await keepAgentTrace(dir, readFileSync(join(dir, 'model_traffic.jsonl'), 'utf8'));
    rmSync(join(dir, 'model_traffic.jsonl'));
    const r = await exportAtif(run, join(run, 'b'));
    expect(r.written[0]!.source).toBe('trace.jsonl');
    const after = read(r.written[0]!.file);
    expect(after.steps).toEqual(before.steps);
  });

  it("our own agent's run: from its own trace.jsonl, named as the runner's agent", async () => {
    const run = copy('own-agent-run');
    const r = await exportAtif(run, join(run, 'atif'));
    expect(r.written.map((w) => [w.scenario, w.source])).toEqual([['search/search_email_flight_code', 'trace.jsonl']]);
    const t = read(r.written[0]!.file);
    expect(validateTrajectory(t)).toEqual([]);
    expect(t.agent).toMatchObject({ name: 'gaia2-runner-default', version: '0.1.0', model_name: 'fake-gateway' });
    expect(t.steps[0]!.source).toBe('system');
    expect(t.steps.filter((s) => s.source === 'agent').at(-1)!.message).toContain('K7QX2M');
    expect(readdirSync(join(run, 'atif', 'search'))).toEqual(['search_email_flight_code']);
  });

  it('a request no answer came back to (abandoned when the run ended) is no step', async () => {
    const run = copy('third-party-runs/claude-code');
    const file = join(run, THIRD_PARTY_SCENARIO, 'model_traffic.jsonl');
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    // The gateway's line for a request cut off at the run's end: the request, no answer, no usage.
    const last = JSON.parse(lines.at(-1)!) as Record<string, unknown>;
    const cut = { ...last, seq: 4, http_status: 0, raw_response: '', usage: null, abandoned: true, error: 'abandoned: the run ended' };
    writeFileSync(file, [...lines, JSON.stringify(cut)].join('\n') + '\n');
    const t = read((await exportAtif(run, join(run, 'atif'))).written[0]!.file);
    expect(t.steps.filter((s) => s.source === 'agent').map((s) => s.extra?.seq)).toEqual([1, 2, 3]);
  });

  it('skips a scenario run without a model call and says so', async () => {
    const run = copy('third-party-runs/openclaw');
    rmSync(join(run, THIRD_PARTY_SCENARIO, 'model_traffic.jsonl'));
    const r = await exportAtif(run, join(run, 'atif'));
    expect(r.written).toEqual([]);
    expect(r.skipped).toEqual([{ scenario: THIRD_PARTY_SCENARIO, reason: expect.stringContaining('no model call') }]);
  });

  it('refuses a missing directory and a directory that is no run, naming the path', async () => {
    const run = copy('third-party-runs/openclaw');
    await expect(exportAtif(join(run, 'nope'), join(run, 'atif'))).rejects.toThrow(`no such directory: ${join(run, 'nope')}`);
    await expect(exportAtif(join(run, THIRD_PARTY_SCENARIO, 'result.json'), join(run, 'atif'))).rejects.toThrow(/not a directory: .*result\.json/);
    const empty = join(run, 'atif-empty');
    await exportAtif(run, empty); // creates the folder with one trajectory, no result.json
    await expect(exportAtif(empty, join(run, 'x'))).rejects.toThrow(`not a run directory: ${empty}`);
  });
});
