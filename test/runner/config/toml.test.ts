// run-config TOML: the reference's test_run_config.py rules that still apply, plus the
// strict schema (unknown tables/keys with suggestions) and our optional judge.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { loadRunConfig } from '../../../runner/src/config/resolve-toml.js';
import { formatSummary } from '../../../runner/src/config/summary.js';
import { CANONICAL_SPLITS } from '../../../runner/src/plan/plan.js';
import { writeScenario } from '../dataset/make-scenario.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cfg-'));
  writeScenario(join(dir, 'scenarios/s1.json'), 's1');
  mkdirSync(join(dir, 'data/search'), { recursive: true });
});

function cfg(text: string, name = 'c.toml'): string {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
}
const load = (text: string, env: Record<string, string> = {}) => loadRunConfig(cfg(text), env);
const ORACLE = '[agent]\nname = "oracle"\n';

describe('TOML config', () => {
  it('resolves relative paths against the config directory, not the CWD', () => {
    const p = load(`[target]\nscenario = "scenarios/s1.json"\n${ORACLE}[run]\noutput_dir = "out"\n`);
    expect(p.target).toEqual({ kind: 'scenario', scenario: join(dir, 'scenarios/s1.json') });
    expect(p.run.outputDir).toBe(join(dir, 'out'));
    expect(p.run.output).toBeNull(); // scenario targets get no auto results file
  });

  it('loads api_key_env for agent and judge, and fails on an unset one', () => {
    const t = '[target]\nscenario = "scenarios/s1.json"\n[agent]\nprovider = "openai"\nmodel = "m"\napi_key_env = "MY_AGENT_KEY"\n[judge]\nprovider = "openai"\nmodel = "j"\napi_key_env = "MY_JUDGE_KEY"\n';
    const p = load(t, { MY_AGENT_KEY: 'agent-secret-1', MY_JUDGE_KEY: 'judge-secret-1' });
    expect(p.agent.apiKey).toEqual({ value: 'agent-secret-1', source: 'MY_AGENT_KEY' });
    expect(p.judge?.apiKey).toEqual({ value: 'judge-secret-1', source: 'MY_JUDGE_KEY' });
    expect(() => load(t, { MY_JUDGE_KEY: 'x' })).toThrow(/\[agent\]\.api_key_env references an unset env var: MY_AGENT_KEY/);
    expect(() => load(t.replace('api_key_env = "MY_AGENT_KEY"', 'api_key_env = "MY_AGENT_KEY"\napi_key = "lit"'), { MY_AGENT_KEY: 'a', MY_JUDGE_KEY: 'b' })).toThrow(
      /\[agent\] cannot set both api_key and api_key_env/,
    );
  });

  it('[agent] tools and max_tokens: defaults, values, and typed errors', () => {
    const t = '[target]\nscenario = "scenarios/s1.json"\n[agent]\nprovider = "openai"\nmodel = "m"\napi_key_env = "K"\n';
    expect(load(t, { K: 'key-123456' }).agent).toMatchObject({ tools: 'shell', maxTokens: null });
    expect(load(`${t}tools = "functions"\nmax_tokens = 2048\n`, { K: 'key-123456' }).agent).toMatchObject({ tools: 'functions', maxTokens: 2048 });
    expect(() => load(`${t}tools = "browser"\n`, { K: 'key-123456' })).toThrow(/tools.*must be one of: shell, functions/);
    expect(() => load(`${t}max_tokens = "many"\n`, { K: 'key-123456' })).toThrow(/max_tokens/);
  });

  it('[run] errors_as_failures: off by default, a boolean when given', () => {
    const t = `[target]\ndataset_root = "data"\n${ORACLE}[run]\noutput_dir = "out"\n`;
    expect(load(t).run.errorsAsFailures).toBe(false);
    expect(load(`${t}errors_as_failures = true\n`).run.errorsAsFailures).toBe(true);
    expect(() => load(`${t}errors_as_failures = "yes"\n`)).toThrow(/\[run\]\.errors_as_failures/);
  });

  it('splits: "all" → canonical list; output auto-derived for datasets', () => {
    const p = load(`[target]\ndataset_root = "data"\nsplits = "all"\n${ORACLE}[run]\noutput_dir = "out"\n`);
    expect(p.target).toMatchObject({ kind: 'local', splits: [...CANONICAL_SPLITS] });
    expect(p.run.output).toBe(join(dir, 'out/results.jsonl'));
  });

  it('expands ${VAR} in paths, and names unset variables', () => {
    const p = load(`[target]\ndataset_root = "\${GAIA2_DATASET_DIR}"\n${ORACLE}[run]\noutput_dir = "\${OUT_BASE}/o"\n`, { GAIA2_DATASET_DIR: join(dir, 'data'), OUT_BASE: join(dir, 'x') });
    expect(p.target).toMatchObject({ path: join(dir, 'data') });
    expect(p.run.output).toBe(join(dir, 'x/o/results.jsonl'));
    expect(() => load(`[target]\ndataset_root = "\${MISSING_ONE}/\${MISSING_ONE}/$MISSING_TWO"\n${ORACLE}`)).toThrow(
      /\[target\]\.dataset_root references unset env var\(s\): MISSING_ONE, MISSING_TWO/,
    );
  });

  it('unknown split, unknown field with a suggestion, unknown table with a suggestion', () => {
    expect(() => load(`[target]\ndataset_root = "data"\nsplits = ["serch"]\n${ORACLE}`)).toThrow(/Unknown split\(s\) in \[target\]\.splits: serch/);
    expect(() => load(`[target]\ndataset_root = "data"\nsplts = ["search"]\n${ORACLE}`)).toThrow(/\[target\] has unknown field\(s\): splts \(did you mean "splits"\?\)/);
    expect(() => load(`[target]\ndataset_root = "data"\n${ORACLE}[jugde]\nmodel = "x"\n`)).toThrow(/top level has unknown .*jugde \(did you mean "judge"\?\)/);
    expect(() => load(`[target]\ndataset_root = "data"\n${ORACLE}[run]\nconcurency = 2\n`)).toThrow(/c\.toml: \[run\] has unknown field\(s\): concurency \(did you mean "concurrency"\?\)/);
  });

  it('scenario targets reject dataset-only keys', () => {
    expect(() => load(`[target]\nscenario = "scenarios/s1.json"\nrecursive = false\n${ORACLE}`)).toThrow(/\[target\]\.recursive/);
    expect(() => load(`[target]\nscenario = "scenarios/s1.json"\nlimit = 2\n${ORACLE}`)).toThrow(/\[target\]\.limit is only supported for dataset targets/);
    expect(() => load(`[target]\nscenario = "scenarios/s1.json"\n${ORACLE}[run]\nconcurrency = 2\n`)).toThrow(/\[run\]\.concurrency is only supported for dataset targets/);
  });

  it('types and choices are checked with the key named', () => {
    expect(() => load(`[target]\nscenario = "scenarios/s1.json"\n[agent]\nname = "oracle"\nthinking = "max"\n`)).toThrow(/\[agent\]\.thinking must be one of: off, low, medium, high \(got "max"\)/);
    expect(() => load(`[target]\nscenario = "scenarios/s1.json"\n${ORACLE}[run]\nnotification_mode = "toast"\n`)).toThrow(/\[run\]\.notification_mode must be one of: message, native/);
    expect(() => load(`[target]\nscenario = "scenarios/s1.json"\n${ORACLE}[run]\ntimeout = 600.0\n`)).toThrow(/\[run\]\.timeout must be an integer/);
    expect(() => load(`[target]\nscenario = "scenarios/s1.json"\n${ORACLE}[run]\ntimeout = true\n`)).toThrow(/\[run\]\.timeout must be an integer/);
    expect(() => load(`[target]\nscenario = "scenarios/s1.json"\n${ORACLE}[run]\ntimeout = 0\n`)).toThrow(/\[run\]\.timeout must be >= 1/);
    expect(() => load(`[target]\nscenario = "scenarios/s1.json"\n${ORACLE}[run]\ntime_speed = -1\n`)).toThrow(/\[run\]\.time_speed must be > 0/);
    expect(() => load(`[target]\nscenario = "scenarios/s1.json"\n${ORACLE}[run]\nclock_cpu_wait = "ignore"\n`)).toThrow(/\[run\]\.clock_cpu_wait must be one of: exclude, count/);
    expect(load(`[target]\nscenario = "scenarios/s1.json"\n${ORACLE}[run]\nclock_cpu_wait = "count"\n`).run.clockCpuWait).toBe('count');
    expect(load(`[target]\nscenario = "scenarios/s1.json"\n${ORACLE}`).run.clockCpuWait).toBeNull();
    expect(() => load(`[target]\nscenario = "scenarios/s1.json"\n${ORACLE}[run]\nretry = "yes"\n`)).toThrow(/\[run\]\.retry must be true or false/);
    expect(() => load(`[target]\nscenario = "scenarios/s1.json"\n[agent]\nname = "robot"\n`)).toThrow(/\[agent\]\.name = "robot" is not a known agent; known agents: oracle, default, scripted/);
  });

  it('legacy keys get a rename hint', () => {
    expect(() => load(`[target]\nscenario = "scenarios/s1.json"\n${ORACLE}[judge]\nendpoint = "x"\n`)).toThrow(/\[judge\]\.endpoint has been renamed to \[judge\]\.base_url/);
    expect(() => load(`[target]\nscenario = "scenarios/s1.json"\n${ORACLE}[run]\nsmart_pass_at = true\n`)).toThrow(/smart_pass_at has been removed/);
  });

  it('exactly one target; a local path in [target].dataset is pointed to dataset_root', () => {
    expect(() => load(`[target]\n${ORACLE}`)).toThrow(/exactly one of \[target\]\.scenario, \[target\]\.dataset_root, or \[target\]\.dataset/);
    expect(() => load(`[target]\ndataset = "./data"\n${ORACLE}`)).toThrow(/use \[target\]\.dataset_root for a local directory/);
  });

  it('the default agent needs provider and model; the judge is optional but all-or-nothing', () => {
    expect(() => load('[target]\nscenario = "scenarios/s1.json"\n[agent]\nprovider = "openai"\n')).toThrow(/Missing: \[agent\]\.model/);
    const p = load(`[target]\nscenario = "scenarios/s1.json"\n${ORACLE}`);
    expect(p.judge).toBeNull();
    expect(() => load(`[target]\nscenario = "scenarios/s1.json"\n${ORACLE}[judge]\nmodel = "m"\n`)).toThrow(/Missing: \[judge\]\.provider/);
  });

  it('a TOML syntax error names the file, line and column', () => {
    expect(() => load('[target\nscenario = 1\n')).toThrow(/c\.toml:1:\d+: invalid TOML/);
  });

  it('summary: dataset mode, splits, retry, judge mode; HF shows the id and never "Dataset root"', () => {
    const p = load(`[target]\ndataset_root = "data"\nsplits = ["execution", "search"]\n${ORACLE}[run]\nretry = true\noutput_dir = "o"\n`);
    const s = formatSummary(p, 2).join('\n');
    expect(s).toContain('Mode: dataset');
    expect(s).toContain('Splits: execution, search');
    expect(s).toContain('Resolved scenarios: 2');
    expect(s).toContain('Retry: on');
    expect(s).toContain('Judge: hard checks only');
    expect(s).not.toContain('Report: errors count');
    const strict = load(`[target]\ndataset_root = "data"\n${ORACLE}[run]\nerrors_as_failures = true\nenable_caching = true\noutput_dir = "o"\n`);
    expect(formatSummary(strict, 2)).toEqual(expect.arrayContaining(['Report: errors count as failed runs', 'Result cache: on (identical finished runs are reused)']));
    const hf = load(`[target]\ndataset = "meta-agents-research-environments/gaia2-cli"\nsplits = "search"\n${ORACLE}`);
    const h = formatSummary(hf, 1).join('\n');
    expect(h).toContain('Dataset: meta-agents-research-environments/gaia2-cli');
    expect(h).toContain('Splits: search');
    expect(h).not.toContain('Dataset root');
  });
});
