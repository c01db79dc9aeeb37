// Flags → plan: spec §9 test_cli_judge_config.py rules, with the judge optional (hard checks only).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planFromDatasetFlags, planFromRunFlags, type AgentFlags, type DatasetFlags } from '../../../runner/src/config/cli-flags.js';
import { writeScenario } from '../dataset/make-scenario.js';
import { defaultRunFlags } from './flag-defaults.js';

const dir = mkdtempSync(join(tmpdir(), 'flags-'));
const scenario = writeScenario(join(dir, 's.json'), 's');
const base: AgentFlags & { scenario: string } = { ...defaultRunFlags(scenario) };
const oracle = { ...base, agent: 'oracle' as const };

describe('run flags', () => {
  it('CLI judge values beat GAIA2_JUDGE_* env values; the key is passed through', () => {
    const env = { GAIA2_JUDGE_MODEL: 'env-m', GAIA2_JUDGE_PROVIDER: 'env-p', GAIA2_JUDGE_BASE_URL: 'http://env', GAIA2_JUDGE_API_KEY: 'env-key-123' };
    const p = planFromRunFlags({ ...oracle, judgeModel: 'cli-m', judgeProvider: 'cli-p', judgeBaseUrl: 'http://cli', judgeApiKey: 'cli-key-123' }, env);
    expect(p.judge).toEqual({ model: 'cli-m', provider: 'cli-p', baseUrl: 'http://cli', apiKey: { value: 'cli-key-123', source: 'explicit' }, promptVersion: null, extraBody: null });
    const q = planFromRunFlags(oracle, env);
    expect(q.judge).toMatchObject({ model: 'env-m', provider: 'env-p', baseUrl: 'http://env', apiKey: { value: 'env-key-123' } });
  });

  it('no judge at all → hard checks only; half a judge → error naming the missing flag', () => {
    expect(planFromRunFlags(oracle, {}).judge).toBeNull();
    expect(() => planFromRunFlags({ ...oracle, judgeModel: 'm' }, {})).toThrow(/Missing: --judge-provider \/ GAIA2_JUDGE_PROVIDER/);
  });

  it('an LLM agent without provider/model is a usage error naming both', () => {
    expect(() => planFromRunFlags({ ...base, image: 'gaia2-oc' }, {})).toThrow(/Missing: --provider, --model/);
  });

  it('an oracle image drops provider and model', () => {
    const p = planFromRunFlags({ ...base, image: 'gaia2-oracle', provider: 'openai', model: 'x' }, {});
    expect(p.agent).toMatchObject({ name: 'oracle', provider: null, model: null });
    expect(() => planFromRunFlags({ ...base, image: 'gaia2-oracle', agent: 'default' }, {})).toThrow(/oracle image/);
  });

  it('numbers are validated (the reference accepted 0 and negatives)', () => {
    expect(() => planFromRunFlags({ ...oracle, timeout: '0' }, {})).toThrow(/--timeout must be >= 1/);
    expect(() => planFromRunFlags({ ...oracle, timeout: 'ten' }, {})).toThrow(/--timeout must be an integer/);
    expect(() => planFromRunFlags({ ...oracle, timeSpeed: '-1' }, {})).toThrow(/--time-speed must be > 0/);
  });

  it('the key can come from a named variable', () => {
    const p = planFromRunFlags({ ...base, provider: 'openai', model: 'm', apiKeyEnv: 'MY_KEY' }, { MY_KEY: 'k-from-var' });
    expect(p.agent.apiKey).toEqual({ value: 'k-from-var', source: 'MY_KEY' });
    expect(() => planFromRunFlags({ ...base, provider: 'openai', model: 'm', apiKeyEnv: 'NOPE' }, {})).toThrow(/--api-key-env references an unset env var: NOPE/);
  });
});

describe('run-dataset flags', () => {
  const ds: DatasetFlags = { ...oracle, dataset: dir, concurrency: '1', passAt: '1', revision: 'main' };
  it('pass-at, limit and concurrency are checked; pass@N needs an output dir', () => {
    expect(() => planFromDatasetFlags({ ...ds, passAt: '0' }, {})).toThrow(/--pass-at must be >= 1/);
    expect(() => planFromDatasetFlags({ ...ds, passAt: '3' }, {})).toThrow(/--pass-at > 1 requires --output-dir/);
    expect(() => planFromDatasetFlags({ ...ds, limit: '-2' }, {})).toThrow(/--limit must be >= 1/);
    expect(() => planFromDatasetFlags({ ...ds, concurrency: '0' }, {})).toThrow(/--concurrency must be >= 1/);
  });

  it('an HF id becomes an HF target with normalised splits; a path a local one', () => {
    const p = planFromDatasetFlags({ ...ds, dataset: 'meta-agents-research-environments/gaia2-cli', splits: ' Search ,time,search' }, {});
    expect(p.target).toMatchObject({ kind: 'hf', splits: ['search', 'time'], revision: 'main' });
    expect(() => planFromDatasetFlags({ ...ds, splits: 'all,search' }, {})).toThrow(/cannot combine 'all'/);
    expect(planFromDatasetFlags(ds, {}).target).toMatchObject({ kind: 'local', path: dir, recursive: true });
    expect(() => planFromDatasetFlags({ ...ds, dataset: join(dir, 'missing') }, {})).toThrow(/--dataset does not exist/);
  });
});

describe('flags for the reference judge and run settings', () => {
  const judged = { ...oracle, judgeProvider: 'openai-compat', judgeModel: 'gpt-oss-120b', judgeBaseUrl: 'http://gpu:8001/v1' };
  it('--judge-prompt-version and --judge-extra-body, else GAIA2_JUDGE_PROMPT_VERSION / GAIA2_JUDGE_EXTRA_BODY', () => {
    const p = planFromRunFlags({ ...judged, judgePromptVersion: 'omnilingual-gaia2', judgeExtraBody: '{"reasoning_effort":"low"}' }, {});
    expect(p.judge).toMatchObject({ promptVersion: 'omnilingual-gaia2', extraBody: { reasoning_effort: 'low' } });
    const q = planFromRunFlags(judged, { GAIA2_JUDGE_PROMPT_VERSION: 'omnilingual-gaia2', GAIA2_JUDGE_EXTRA_BODY: '{"chat_template_kwargs":{"enable_thinking":true}}' });
    expect(q.judge).toMatchObject({ promptVersion: 'omnilingual-gaia2', extraBody: { chat_template_kwargs: { enable_thinking: true } } });
    expect(() => planFromRunFlags({ ...judged, judgePromptVersion: 'omni' }, {})).toThrow('--judge-prompt-version: unknown judge prompt version "omni" (known: default, omnilingual-gaia2)');
    expect(() => planFromRunFlags(judged, { GAIA2_JUDGE_PROMPT_VERSION: 'v3' })).toThrow('GAIA2_JUDGE_PROMPT_VERSION: unknown judge prompt version "v3"');
    expect(() => planFromRunFlags({ ...judged, judgeExtraBody: 'low' }, {})).toThrow(/^--judge-extra-body must be a JSON object/);
  });

  it('--idle-timeout: a number > 0, unset by default', () => {
    expect(planFromRunFlags(oracle, {}).run.idleTimeout).toBeNull();
    expect(planFromRunFlags({ ...oracle, idleTimeout: '450.5' }, {}).run.idleTimeout).toBe(450.5);
    expect(() => planFromRunFlags({ ...oracle, idleTimeout: '0' }, {})).toThrow('--idle-timeout must be > 0 (got 0)');
    expect(() => planFromRunFlags({ ...oracle, idleTimeout: 'soon' }, {})).toThrow('--idle-timeout must be a number (got "soon")');
  });

  it('--language: a language_Script code; without --splits the four translated splits; time refused', () => {
    const ds: DatasetFlags = { ...oracle, dataset: 'facebook/omnilingual-gaia2', concurrency: '1', passAt: '1', revision: 'main' };
    expect(planFromDatasetFlags({ ...ds, language: 'cmn_Hans' }, {}).target).toMatchObject({ kind: 'hf', language: 'cmn_Hans', splits: ['execution', 'search', 'ambiguity', 'adaptability'] });
    expect(planFromDatasetFlags(ds, {}).target).toMatchObject({ kind: 'hf', splits: null });
    expect(() => planFromDatasetFlags({ ...ds, language: 'cmn_Hans', splits: 'search,time' }, {})).toThrow('Split(s) not available for language cmn_Hans in --splits: time');
    expect(() => planFromDatasetFlags({ ...ds, language: 'chinese' }, {})).toThrow('--language must be a language_Script code');
  });
});
