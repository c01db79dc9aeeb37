// [run] max_cost_usd, max_tokens, total_max_cost_usd, total_max_tokens and their flags: off by
// default, each > 0 (tokens whole), a bad value names the file (TOML) or the flag and the field;
// recorded only when set; a budget without the local model gateway is refused by the preflight.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRunConfig } from '../../../runner/src/config/resolve-toml.js';
import { planFromRunFlags } from '../../../runner/src/config/cli-flags.js';
import { toRecord } from '../../../runner/src/record/index.js';
import { formatSummary } from '../../../runner/src/config/summary.js';
import { NO_BUDGET } from '../../../runner/src/plan/budget.js';
import { writeScenario } from '../dataset/make-scenario.js';
import { defaultRunFlags } from './flag-defaults.js';
import { preflightRun } from '../../../runner/src/orchestrator/preflight.js';
import { fakeEngine } from '../orchestrator/fakes.js';

const dir = mkdtempSync(join(tmpdir(), 'budget-config-'));
const scenario = writeScenario(join(dir, 's.json'), 's');
const toml = (run: string, agent = 'name = "oracle"') => {
  const file = join(dir, `c-${Math.random().toString(36).slice(2)}.toml`);
  writeFileSync(file, `[target]\nscenario = "s.json"\n[agent]\n${agent}\n[run]\n${run}\n`);
  return file;
};
const oracle = { ...defaultRunFlags(scenario), agent: 'oracle' as const };

describe('[run] budget keys', () => {
  it('are off unless set; each set one is its cap', () => {
    expect(loadRunConfig(toml(''), {}).run.budget).toEqual(NO_BUDGET);
    expect(loadRunConfig(toml('max_cost_usd = 0.5\nmax_tokens = 40000\ntotal_max_cost_usd = 20\ntotal_max_tokens = 5000000'), {}).run.budget).toEqual({ maxCostUsd: 0.5, maxTokens: 40000, totalMaxCostUsd: 20, totalMaxTokens: 5000000 });
  });

  it.each([
    ['max_cost_usd = 0', /: \[run\]\.max_cost_usd must be a dollar amount > 0 \(got 0\)/],
    ['max_tokens = 10.5', /: \[run\]\.max_tokens must be a whole number of tokens > 0 \(got 10\.5\)/],
    ['total_max_cost_usd = -1', /: \[run\]\.total_max_cost_usd must be a dollar amount > 0 \(got -1\)/],
  ])('%s is refused, naming the file and the field', (line, message) => {
    const file = toml(line);
    expect(() => loadRunConfig(file, {})).toThrow(message);
    expect(() => loadRunConfig(file, {})).toThrow(file);
  });

  it('without the model gateway (the oracle has no model route) the preflight refuses it before any unit, saying why', async () => {
    const plan = loadRunConfig(toml('max_tokens = 1000'), {});
    const err = await preflightRun(plan, fakeEngine(), {}, () => {}).then(() => null, (e: Error) => e);
    expect(err?.name).toBe('ConfigError');
    expect(err?.message).toBe('[run] budget (max_cost_usd, max_tokens, total_max_cost_usd, total_max_tokens): the model gateway counts and enforces it, but the model gateway is off for this run (no model is called)');
  });
});

describe('budget flags', () => {
  it('set the caps; bad values name the flag', () => {
    expect(planFromRunFlags({ ...oracle, maxCostUsd: '0.25', totalMaxTokens: '90000' }, {}).run.budget).toEqual({ ...NO_BUDGET, maxCostUsd: 0.25, totalMaxTokens: 90000 });
    expect(() => planFromRunFlags({ ...oracle, maxRunTokens: '0' }, {})).toThrow('--max-run-tokens must be a whole number of tokens > 0 (got 0)');
    expect(() => planFromRunFlags({ ...oracle, totalMaxCostUsd: 'lots' }, {})).toThrow('--total-max-cost-usd must be a number (got "lots")');
  });

  it('are recorded only when set and shown in the summary', () => {
    const off = planFromRunFlags(oracle, {});
    const on = planFromRunFlags({ ...oracle, maxCostUsd: '0.25', totalMaxTokens: '90000' }, {});
    expect('budget' in toRecord(off).run_options).toBe(false);
    expect(toRecord(on).run_options.budget).toEqual({ max_cost_usd: 0.25, max_tokens: null, total_max_cost_usd: null, total_max_tokens: 90000 });
    expect(formatSummary(on, 1).join('\n')).toContain("Budget (the agent's model calls, through the gateway): $0.25 per scenario run; 90000 tokens for the whole run");
    expect(formatSummary(off, 1).join('\n')).not.toContain('Budget');
  });
});
