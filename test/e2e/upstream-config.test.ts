// An Omnilingual-Gaia2 config in the reference's shape run as `run-config` runs it, in a real
// container: [target].language over a local export, [judge].prompt_version and extra_body,
// [run].idle_timeout → plan → container env → the in-container judge asks the scripted judge
// LLM with the omnilingual prompts and extra_body → result.json, run_config.json, report.
import { readRunRecord } from '../../runner/src/record/read.js';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScenarioResult } from '@gaia2/contract';
import { OMNILINGUAL_PROMPTS } from '../../agent-image/src/judge/prompts-omnilingual.js';
import { connectEngine, type UnitBackend } from '../../runner/src/engine/index.js';
import { DEFAULT_IMAGE } from '../../runner/src/image/index.js';
import { runTomlConfig } from './helpers/run-toml.js';
import { say, startFakeLlm, type FakeLlm } from '../helpers/fake-llm/index.js';
import { KENJI_REWORDED } from './helpers/kenji-script.js';

const root = join(import.meta.dirname, '..', '..');
const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
const KEY = 'sk-omni-judge-canary-7e21';

let engine: UnitBackend;
let fake: FakeLlm;
let out: string;
let result: ScenarioResult;
let env: Record<string, string> = {};

beforeAll(async () => {
  engine = await connectEngine();
  fake = await startFakeLlm({ format: 'openai-chat', script: [], fallback: say('Evaluación correcta. Verdict: [[Success]] / [[True]]') });
  const work = mkdtempSync(join(tmpdir(), 'gaia2-omni-config-'));
  // a local export with one directory per language
  mkdirSync(join(work, 'omnilingual', 'spa_Latn', 'adaptability'), { recursive: true });
  cpSync(join(root, 'examples/scenarios/adaptability/adapt_chats_kenji_sync.json'), join(work, 'omnilingual', 'spa_Latn', 'adaptability', 'adapt_chats_kenji_sync.json'));
  writeFileSync(join(work, 'script.json'), JSON.stringify(KENJI_REWORDED));
  out = join(work, 'out');
  const hostEnv = { OMNI_JUDGE_KEY: KEY };
  ({ result, env } = await runTomlConfig(engine, join(work, 'omni.toml'), [
    '[target]',
    'dataset_root = "omnilingual"',
    'language = "spa_Latn"',
    'splits = ["adaptability"]',
    '[agent]',
    `image = "${image}"`,
    'name = "scripted"',
    'script = "script.json"',
    '[judge]',
    'provider = "openai-compat"',
    'model = "gpt-oss-120b"',
    `base_url = "${fake.url}"`,
    'api_key_env = "OMNI_JUDGE_KEY"',
    'prompt_version = "omnilingual-gaia2"',
    'extra_body = { reasoning_effort = "low" }',
    '[run]',
    'timeout = 180',
    'health_timeout = 60',
    'idle_timeout = 240.0',
    'output_dir = "out"',
  ], hostEnv));
}, 600_000);

afterAll(async () => {
  await fake?.close();
  await engine?.close();
});

describe('an Omnilingual-Gaia2 config in the reference shape (real container)', () => {
  it('passes, judged in the container with the omnilingual prompts and extra_body on every request', () => {
    expect(result.failure_reasons ?? result.error ?? null).toBeNull();
    expect(result.status).toBe('pass');
    expect(env).toMatchObject({ GAIA2_JUDGE_PROMPT_VERSION: 'omnilingual-gaia2', GAIA2_JUDGE_EXTRA_BODY: '{"reasoning_effort":"low"}', GAIA2_IDLE_TIMEOUT: '240.0' });
    expect(fake.requests.length).toBeGreaterThan(0);
    const firstLine = (t: string) => t.split('\n')[0]!;
    const omniFirstLines = new Set(Object.values(OMNILINGUAL_PROMPTS).map((p) => firstLine(p!.system)));
    for (const r of fake.requests) {
      expect(r.body.reasoning_effort).toBe('low');
      expect(r.headers.authorization).toBe(`Bearer ${KEY}`);
      const system = (r.body.messages as Array<{ role: string; content: string }>).find((m) => m.role === 'system')!.content;
      expect(omniFirstLines.has(firstLine(system))).toBe(true);
      expect(system).toContain('any language');
    }
  });

  it('records the language and the judge settings, without the key', () => {
    const rc = JSON.parse(readFileSync(join(out, 'run_config.json'), 'utf8'));
    const { rec } = readRunRecord(join(out, 'run_config.json'));
    expect(rec.target).toMatchObject({ language: 'spa_Latn' });
    expect(rec.judge_options).toMatchObject({ prompt_version: 'omnilingual-gaia2', extra_body: { reasoning_effort: 'low' } });
    expect(rec.run_options.idle_timeout).toBe(240);
    expect(rc.dataset).toMatch(/omnilingual\/spa_Latn$/);
    const onDisk = JSON.parse(readFileSync(join(out, 'adaptability', 'adapt_chats_kenji_sync', 'result.json'), 'utf8'));
    expect(onDisk).toMatchObject({ status: 'pass', judge_mode: 'llm', judge_prompt_version: 'omnilingual-gaia2', judge_extra_body: { reasoning_effort: 'low' } });
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain('Language: spa_Latn');
    for (const f of ['run_config.json', 'results.jsonl', 'report.md']) expect(readFileSync(join(out, f), 'utf8')).not.toContain(KEY);
  });
});
