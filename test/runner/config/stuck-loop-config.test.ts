// [run].stuck_loop_min_tool_calls and --stuck-loop-min-tool-calls: off by default, 0 = off,
// else an integer >= 2; a bad value exits 2 naming the file (TOML) or the flag, and the field.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRunConfig } from '../../../runner/src/config/resolve-toml.js';
import { planFromRunFlags } from '../../../runner/src/config/cli-flags.js';
import { toRecord } from '../../../runner/src/record/index.js';
import { formatSummary } from '../../../runner/src/config/summary.js';
import { writeScenario } from '../dataset/make-scenario.js';
import { defaultRunFlags } from './flag-defaults.js';
import { runCliInProcess } from './in-process-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'stuck-config-'));
const scenario = writeScenario(join(dir, 's.json'), 's');
const toml = (run: string) => {
  const file = join(dir, `c-${Math.random().toString(36).slice(2)}.toml`);
  writeFileSync(file, `[target]\nscenario = "s.json"\n[agent]\nname = "oracle"\n[run]\n${run}\n`);
  return file;
};
const oracle = { ...defaultRunFlags(scenario), agent: 'oracle' as const };

describe('[run].stuck_loop_min_tool_calls', () => {
  it('is off unless set; 0 is off; N >= 2 is the threshold', () => {
    expect(loadRunConfig(toml(''), {}).run.stuckLoopMinToolCalls).toBe(0);
    expect(loadRunConfig(toml('stuck_loop_min_tool_calls = 0'), {}).run.stuckLoopMinToolCalls).toBe(0);
    expect(loadRunConfig(toml('stuck_loop_min_tool_calls = 5'), {}).run.stuckLoopMinToolCalls).toBe(5);
  });

  it.each([
    ['1', /: \[run\]\.stuck_loop_min_tool_calls must be 0 \(off\) or an integer >= 2.*\(got 1\)/],
    ['-3', /: \[run\]\.stuck_loop_min_tool_calls must be 0 \(off\) or an integer >= 2.*\(got -3\)/],
    ['5.0', /: \[run\]\.stuck_loop_min_tool_calls must be an integer \(got 5\)/],
    ['"5"', /: \[run\]\.stuck_loop_min_tool_calls must be an integer \(got "5"\)/],
  ])('= %s is refused, naming the file and the field', (value, message) => {
    const file = toml(`stuck_loop_min_tool_calls = ${value}`);
    let err: Error | null = null;
    try {
      loadRunConfig(file, {});
    } catch (e) {
      err = e as Error;
    }
    expect(err?.message).toMatch(message);
    expect(err?.message.startsWith(file)).toBe(true);
  });

  it('a misspelt key is named with the right one suggested', () => {
    expect(() => loadRunConfig(toml('stuck_loop_min_toolcalls = 5'), {})).toThrow(/did you mean "stuck_loop_min_tool_calls"/);
  });

  it('run-config exits 2 on a bad value before any container, the message naming file and field', async () => {
    const file = toml('stuck_loop_min_tool_calls = 1');
    const r = await runCliInProcess(['run-config', file, '--dry-run'], dir);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${file}: [run].stuck_loop_min_tool_calls must be 0 (off) or an integer >= 2`);
  });
});

describe('--stuck-loop-min-tool-calls', () => {
  it('sets the threshold; bad values name the flag', () => {
    expect(planFromRunFlags(oracle, {}).run.stuckLoopMinToolCalls).toBe(0);
    expect(planFromRunFlags({ ...oracle, stuckLoopMinToolCalls: '4' }, {}).run.stuckLoopMinToolCalls).toBe(4);
    expect(() => planFromRunFlags({ ...oracle, stuckLoopMinToolCalls: '1' }, {})).toThrow(/--stuck-loop-min-tool-calls must be 0 \(off\) or an integer >= 2/);
    expect(() => planFromRunFlags({ ...oracle, stuckLoopMinToolCalls: 'often' }, {})).toThrow('--stuck-loop-min-tool-calls must be an integer (got "often")');
  });

  it('is recorded only when on (cache keys of earlier runs stay valid) and shown in the summary', () => {
    const offPlan = planFromRunFlags(oracle, {});
    const onPlan = planFromRunFlags({ ...oracle, stuckLoopMinToolCalls: '4' }, {});
    expect('stuck_loop_min_tool_calls' in toRecord(offPlan).run_options).toBe(false);
    expect(toRecord(onPlan).run_options.stuck_loop_min_tool_calls).toBe(4);
    expect(formatSummary(onPlan, 1).join('\n')).toContain('Stuck loops: a run fails after 4 identical tool calls with identical results in a row');
    expect(formatSummary(offPlan, 1).join('\n')).not.toContain('Stuck loops');
  });
});
