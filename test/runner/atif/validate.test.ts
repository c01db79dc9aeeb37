// The ATIF check against the rules of Harbor's models, on a real exported trajectory: it
// passes as written, and each change Harbor's models refuse is refused, naming the field.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportAtif, validateTrajectory, type AtifTrajectory } from '../../../runner/src/atif/index.js';
import { copyRecordedRun } from '../../helpers/recorded-runs.js';

let doc: AtifTrajectory;
let cleanup = (): void => {};
beforeAll(async () => {
  const copied = copyRecordedRun('third-party-runs/claude-code');
  cleanup = copied.cleanup;
  const r = await exportAtif(copied.dir, join(copied.dir, 'atif'));
  doc = JSON.parse(readFileSync(r.written[0]!.file, 'utf8')) as AtifTrajectory;
});
afterAll(() => cleanup());

const changed = (f: (d: any) => void): unknown => {
  const d = structuredClone(doc);
  f(d);
  return d;
};
const firstAgent = (d: any): any => d.steps.find((s: any) => s.source === 'agent');

describe('validateTrajectory', () => {
  it('passes the exported trajectory', () => {
    expect(validateTrajectory(doc)).toEqual([]);
  });

  const cases: Array<[string, (d: any) => void, RegExp]> = [
    ['no schema_version', (d) => delete d.schema_version, /\$\.schema_version/],
    ['an unknown version', (d) => (d.schema_version = 'ATIF-v9'), /\$\.schema_version/],
    ['no agent', (d) => delete d.agent, /\$\.agent: required/],
    ['an agent without a version', (d) => delete d.agent.version, /\$\.agent\.version: required/],
    ['no steps', (d) => (d.steps = []), /\$\.steps: required/],
    ['a field the root does not declare', (d) => (d.scenario = 'x'), /\$\.scenario: not a field/],
    ['step ids not 1, 2, 3', (d) => (d.steps[1].step_id = 7), /steps\[1\]\.step_id: expected 2/],
    ['a step without a message', (d) => delete d.steps[0].message, /steps\[0\]\.message: required/],
    ['an unknown source', (d) => (d.steps[0].source = 'tool'), /steps\[0\]\.source/],
    ['metrics on a user step', (d) => (d.steps.find((s: any) => s.source === 'user').metrics = {}), /metrics: only agent steps/],
    ['a bad timestamp', (d) => (firstAgent(d).timestamp = 'yesterday'), /timestamp: not an ISO 8601/],
    ['tool call arguments that are no object', (d) => (firstAgent(d).tool_calls[0].arguments = 'ls'), /arguments: required, an object/],
    ['a tool call without a name', (d) => delete firstAgent(d).tool_calls[0].function_name, /function_name: required/],
    ['a result naming no call of its step', (d) => (firstAgent(d).observation.results[0].source_call_id = 'other'), /source_call_id: other is none of the step's tool calls/],
    ['duplicate tool call ids in a step', (d) => firstAgent(d).tool_calls.push({ ...firstAgent(d).tool_calls[0] }), /duplicate call_1/],
    ['metrics on a step of no model call', (d) => (firstAgent(d).llm_call_count = 0), /llm_call_count is 0/],
    ['a field a step does not declare', (d) => (firstAgent(d).tokens = 3), /tokens: not a field/],
    ['a metrics field Harbor does not know', (d) => (firstAgent(d).metrics.cache_write_tokens = 1), /metrics\.cache_write_tokens: not a field/],
    ['a non-integer token count', (d) => (firstAgent(d).metrics.prompt_tokens = 1.5), /prompt_tokens: an integer/],
    ['a negative step total', (d) => (d.final_metrics.total_steps = -1), /total_steps: a non-negative integer/],
  ];
  for (const [what, change, expected] of cases) {
    it(`refuses ${what}`, () => {
      const problems = validateTrajectory(changed(change));
      expect(problems.join('\n')).toMatch(expected);
    });
  }
});
