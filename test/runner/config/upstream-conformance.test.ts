// Config compatibility with the reference runner: configs in the shape of its examples
// (test/fixtures/upstream-configs) load with the reference's meaning for every key of its
// newest schema, and `run-config --dry-run` prints the plan it would run; bad values fail
// before any container, naming the key.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRunConfig } from '../../../runner/src/config/resolve-toml.js';
import { TABLE_KEYS } from '../../../runner/src/config/toml-schema.js';
import { buildBaseEnv } from '../../../runner/src/env/index.js';
import { startFakeHub, scenarioParquet, type FakeHub } from '../../helpers/fake-hub/index.js';
import { scenarioJson, writeScenario } from '../dataset/make-scenario.js';
import { runCliInProcess } from './in-process-cli.js';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'upstream-configs');
const ROOT = join(import.meta.dirname, '..', '..', '..');

// The reference runner's newest config schema (gaia2_runner/config.py): every table's keys.
const UPSTREAM_KEYS: Record<string, string[]> = {
  target: ['scenario', 'dataset_root', 'dataset', 'language', 'splits', 'subset_manifest', 'limit', 'recursive'],
  agent: ['image', 'runtime', 'provider', 'model', 'api_key', 'api_key_env', 'base_url', 'thinking', 'volumes'],
  judge: ['model', 'provider', 'base_url', 'api_key', 'api_key_env', 'prompt_version', 'extra_body'],
  run: ['timeout', 'health_timeout', 'adapter_port', 'concurrency', 'pass_at', 'retry', 'output_dir', 'output', 'log_level', 'notification_mode', 'time_speed', 'idle_timeout'],
};

let work: string;
let env: Record<string, string>;
let hub: FakeHub;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'upstream-configs-'));
  const exportRoot = join(work, 'omnilingual-gaia2');
  for (const split of ['execution', 'search', 'ambiguity', 'adaptability']) writeScenario(join(exportRoot, 'spa_Latn', 'data', split, `${split}_es.json`), `${split}_es`);
  writeFileSync(join(work, 'subset.json'), JSON.stringify({ splits: { search: ['search_es'], execution: ['execution_es'] } }));
  hub = await startFakeHub();
  for (const split of ['execution', 'search'])
    hub.setFile('facebook/omnilingual-gaia2', `spa_Latn_${split}/test-00000-of-00001.parquet`, scenarioParquet([{ scenario_id: `${split}_es_hub`, scenario: JSON.stringify(scenarioJson(`${split}_es_hub`)) }]));
  hub.setFile('meta-agents-research-environments/gaia2-cli', 'search/test-00000-of-00001.parquet', scenarioParquet([{ scenario_id: 'search_en', scenario: JSON.stringify(scenarioJson('search_en')) }]));
  env = {
    GAIA2_TEST_OUT: join(work, 'out'),
    GAIA2_TEST_EXPORT: exportRoot,
    GAIA2_TEST_SUBSET: join(work, 'subset.json'),
    GAIA2_TEST_SCENARIO: join(ROOT, 'examples/scenarios/search/search_email_flight_code.json'),
    ANTHROPIC_API_KEY: 'sk-ant-test-0123456789',
    OPENAI_COMPAT_API_KEY: 'sk-compat-test-0123456789',
    TYPESAFE_API_KEY: 'ts-test-0123456789',
    HF_ENDPOINT: hub.url,
  };
});
afterAll(async () => {
  await hub?.stop();
});

const load = (name: string) => loadRunConfig(join(FIXTURES, name), env);

describe('the reference schema is ours', () => {
  it.each(Object.entries(UPSTREAM_KEYS))('[%s]: every key of the reference is known here', (table, keys) => {
    expect(keys.filter((k) => !TABLE_KEYS[table]!.includes(k))).toEqual([]);
  });

  it('together the fixtures set every key of the reference schema', () => {
    const text = ['quickstart_hermes', 'omnilingual_hub', 'omnilingual_local', 'quickstart_hermes_jev', 'template_openclaw_openai_compat']
      .map((f) => readFileSync(join(FIXTURES, `${f}.toml`), 'utf8'))
      .join('\n');
    const missing = Object.values(UPSTREAM_KEYS).flat().filter((k) => !new RegExp(`^${k} = `, 'm').test(text));
    expect(missing).toEqual([]);
  });
});

describe('each kind of example loads with the reference meaning', () => {
  it('quickstart: the English Hub dataset, one split, no language, judge with default prompts', () => {
    const p = load('quickstart_hermes.toml');
    expect(p.target).toMatchObject({ kind: 'hf', repo: 'meta-agents-research-environments/gaia2-cli', splits: ['search'] });
    expect(p.target.kind === 'hf' && p.target.language).toBeFalsy();
    expect(p.agent).toMatchObject({ image: 'localhost/gaia2-hermes:latest', provider: 'anthropic', thinking: 'high' });
    expect(p.judge).toMatchObject({ provider: 'anthropic', promptVersion: null, extraBody: null });
    expect(p.run).toMatchObject({ timeout: 900, healthTimeout: 180, idleTimeout: null, passAt: 1 });
    // no idle timeout set → none sent: the daemon keeps its own 300 s
    expect(buildBaseEnv(p, env).env).not.toHaveProperty('GAIA2_IDLE_TIMEOUT');
  });

  it('omnilingual from the Hub: language, prompt set, extra body and idle timeout reach the plan and the container', () => {
    const p = load('omnilingual_hub.toml');
    expect(p.target).toMatchObject({ kind: 'hf', repo: 'facebook/omnilingual-gaia2', language: 'spa_Latn', splits: ['execution'], limit: 1 });
    expect(p.judge).toMatchObject({ model: 'openai/openai/gpt-oss-120b', promptVersion: 'omnilingual-gaia2', extraBody: { reasoning_effort: 'low' } });
    expect(p.run).toMatchObject({ idleTimeout: 600, concurrency: 4, passAt: 3, timeout: 1200 });
    const e = buildBaseEnv(p, env).env;
    expect([e.GAIA2_JUDGE_PROMPT_VERSION, e.GAIA2_JUDGE_EXTRA_BODY, e.GAIA2_IDLE_TIMEOUT]).toEqual(['omnilingual-gaia2', '{"reasoning_effort":"low"}', '600.0']);
  });

  it('omnilingual from a local tree: the four splits, subset and recursion; a nested extra body stays nested', () => {
    const p = load('omnilingual_local.toml');
    expect(p.target).toMatchObject({ kind: 'local', path: join(env.GAIA2_TEST_EXPORT!, 'spa_Latn', 'data'), splits: ['execution', 'search', 'ambiguity', 'adaptability'], recursive: true, subset: env.GAIA2_TEST_SUBSET });
    expect(p.judge!.extraBody).toEqual({ chat_template_kwargs: { enable_thinking: true } });
  });

  it('Jev judge: dry-runs; the container gets provider typesafe, the key from TYPESAFE_API_KEY and the options', async () => {
    const p = load('quickstart_hermes_jev.toml');
    expect(p.judge).toMatchObject({ provider: 'typesafe', model: 'jev-latest', extraBody: { threshold: 0.5, timeout: 30 } });
    const e = buildBaseEnv(p, env).env;
    expect([e.GAIA2_JUDGE_PROVIDER, e.GAIA2_JUDGE_MODEL, e.GAIA2_JUDGE_API_KEY]).toEqual(['typesafe', 'jev-latest', 'ts-test-0123456789']);
    expect(JSON.parse(e.GAIA2_JUDGE_EXTRA_BODY!)).toEqual({ threshold: 0.5, timeout: 30 });
    // the agent keeps its own key; the judge's never goes to the agent's variables
    expect(Object.entries(e).filter(([k, v]) => v === 'ts-test-0123456789').map(([k]) => k)).toEqual(['GAIA2_JUDGE_API_KEY']);
    const r = await runCliInProcess(['run-config', join(FIXTURES, 'quickstart_hermes_jev.toml'), '--dry-run'], work, env);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/judge.*typesafe.*jev-latest|judge.*jev-latest.*typesafe/i);
    expect(r.out + r.err).not.toContain('ts-test-0123456789');
  });

  it('Jev judge: misuse stops before any container (exit 2, naming the key)', async () => {
    const base = readFileSync(join(FIXTURES, 'quickstart_hermes_jev.toml'), 'utf8');
    const variants: Array<[string, string, RegExp]> = [
      ['extra.toml', base.replace('extra_body = { threshold = 0.5, timeout = 30.0 }', 'extra_body = { threshold = 0.5, reasoning_effort = "low" }'), /\[judge\]\.extra_body: .*unknown: reasoning_effort/],
      ['threshold.toml', base.replace('threshold = 0.5', 'threshold = 1.5'), /\[judge\]\.extra_body\.threshold must be/],
      ['agent.toml', base.replace('provider = "anthropic"', 'provider = "typesafe"'), /\[agent\]\.provider: provider "typesafe" .* can only judge/],
    ];
    for (const [name, text, want] of variants) {
      writeFileSync(join(work, name), text);
      const r = await runCliInProcess(['run-config', join(work, name), '--dry-run'], work, env);
      expect([name, r.code]).toEqual([name, 2]);
      expect(r.err).toMatch(want);
    }
    const noKey = await runCliInProcess(['run-config', join(FIXTURES, 'quickstart_hermes_jev.toml'), '--dry-run'], work, { ...env, TYPESAFE_API_KEY: '' });
    expect(noKey.code).toBe(2);
    expect(noKey.err).toContain('TYPESAFE_API_KEY');
  });

  it('template: every other key at the reference meaning', () => {
    const p = load('template_openclaw_openai_compat.toml');
    expect(p.target).toEqual({ kind: 'scenario', scenario: env.GAIA2_TEST_SCENARIO });
    expect(p.agent).toMatchObject({ runtime: 'docker', volumes: ['/srv/models:/models:ro'], thinking: 'off', baseUrl: 'http://gpu-node-01:8000/v1' });
    expect(p.judge).toMatchObject({ promptVersion: 'default', apiKey: { value: 'EMPTY', source: 'explicit' } });
    expect(p.run).toMatchObject({
      adapterPort: 8123, retry: false, logLevel: 'DEBUG', notificationMode: 'native', timeSpeed: 2, idleTimeout: 450,
      output: join(env.GAIA2_TEST_OUT!, 'template', 'copy.jsonl'),
    });
    const e = buildBaseEnv(p, env).env;
    expect(e.GAIA2_IDLE_TIMEOUT).toBe('450.0');
    // remote model servers are reached without a proxy
    expect(e.no_proxy!.split(',')).toEqual(expect.arrayContaining(['gpu-node-01', 'gpu-node-02']));
  });
});

describe('--dry-run prints the plan the reference would run', () => {
  it('omnilingual from the Hub: the language, its configs, the judge settings, the idle timeout and the scenarios', async () => {
    const r = await runCliInProcess(['run-config', join(FIXTURES, 'omnilingual_hub.toml'), '--dry-run'], work, env);
    expect(r.code).toBe(0);
    const lines = r.out.split('\n');
    for (const l of [
      'Dataset: facebook/omnilingual-gaia2',
      'Language: spa_Latn (Hugging Face configs spa_Latn_<split>, split test)',
      'Splits: execution',
      'Limit: 1',
      'Resolved scenarios: 1',
      'Judge: openai-compat/openai/openai/gpt-oss-120b',
      'Judge prompts: omnilingual-gaia2',
      'Judge extra body: {"reasoning_effort":"low"}',
      'Pass@: 3',
      'Timeouts: scenario 1200s, health 180s, idle 600s, host activity 660s (raised above the idle timeout)',
    ])
      expect(lines).toContain(l);
  });

  it('a language without splits runs the four translated ones; time is refused with the reason', async () => {
    const dir = mkdtempSync(join(work, 'cfg-'));
    cpSync(join(FIXTURES, 'omnilingual_hub.toml'), join(dir, 'a.toml'));
    const base = readFileSync(join(dir, 'a.toml'), 'utf8');
    writeFileSync(join(dir, 'b.toml'), base.replace('splits = ["execution"]', 'splits = "all"').replace('limit = 1\n', ''));
    mkdirSync(join(dir, 'hf'), { recursive: true });
    const all = loadRunConfig(join(dir, 'b.toml'), env);
    expect(all.target.kind === 'hf' && all.target.splits).toEqual(['execution', 'search', 'ambiguity', 'adaptability']);
    writeFileSync(join(dir, 'c.toml'), base.replace('splits = ["execution"]', 'splits = ["time"]'));
    expect(() => loadRunConfig(join(dir, 'c.toml'), env)).toThrow('Split(s) not available for language spa_Latn in [target].splits: time (per-language datasets provide: execution, search, ambiguity, adaptability)');
    writeFileSync(join(dir, 'd.toml'), base.replace('language = "spa_Latn"', 'language = "Spanish"'));
    expect(() => loadRunConfig(join(dir, 'd.toml'), env)).toThrow('[target].language must be a language_Script code such as spa_Latn or cmn_Hans (got "Spanish")');
  });

  it('an unknown prompt set exits 2 naming the key, before any container (also without --dry-run)', async () => {
    const dir = mkdtempSync(join(work, 'bad-'));
    writeFileSync(join(dir, 'bad.toml'), readFileSync(join(FIXTURES, 'omnilingual_hub.toml'), 'utf8').replace('prompt_version = "omnilingual-gaia2"', 'prompt_version = "omnilingual-gaia3"'));
    for (const args of [['--dry-run'], []]) {
      const r = await runCliInProcess(['run-config', join(dir, 'bad.toml'), ...args], work, env);
      expect(r.code).toBe(2);
      expect(r.err).toContain('[judge].prompt_version: unknown judge prompt version "omnilingual-gaia3" (known: default, omnilingual-gaia2)');
      expect(r.err).not.toMatch(/engine|no-engine\.sock/i);
    }
  });

  it('idle_timeout must be a number > 0, extra_body a table', async () => {
    const dir = mkdtempSync(join(work, 'vals-'));
    const base = readFileSync(join(FIXTURES, 'omnilingual_hub.toml'), 'utf8');
    writeFileSync(join(dir, 'a.toml'), base.replace('idle_timeout = 600.0', 'idle_timeout = 0'));
    expect(() => loadRunConfig(join(dir, 'a.toml'), env)).toThrow('[run].idle_timeout must be > 0 (got 0)');
    writeFileSync(join(dir, 'b.toml'), base.replace('extra_body = { reasoning_effort = "low" }', 'extra_body = "low"'));
    expect(() => loadRunConfig(join(dir, 'b.toml'), env)).toThrow(/\[judge\]\.extra_body.*must be a TOML table/);
  });
});
