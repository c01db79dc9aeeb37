// `gaia2-runner judge` as a subprocess: one log (exit codes, JSON verdict, judge LLM over a
// scripted local server) and re-judging a finished run directory.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync, existsSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fail, say, startFakeLlm, type FakeLlm } from '../../helpers/fake-llm/index.js';
import { startTypesafeDouble } from '../../helpers/typesafe-double/index.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const BIN = join(ROOT, 'bin/gaia2-runner.mjs');
const G = join(ROOT, 'test/fixtures/golden');
const SCEN = join(G, 'scenarios/search/search_email_flight_code.json');
const ev = (name: string) => join(G, 'cases/search_email_flight_code', `${name}.events.jsonl`);
const KEY = 'sk-judge-cli-SECRET-123';

// Async spawn: the fake LLM server lives in this process and must keep answering.
function cli(args: string[], env: Record<string, string> = {}): Promise<{ stdout: string; stderr: string; code: number | null }> {
  return new Promise((res) => {
    const cwd = mkdtempSync(join(tmpdir(), 'gaia2-judge-cwd-')); // no stray .env
    const p = spawn(process.execPath, [BIN, 'judge', ...args], { cwd, env: { ...process.env, GAIA2_RUNNER_FROM_SOURCE: '1', ...env } });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d) => (stdout += d));
    p.stderr.on('data', (d) => (stderr += d));
    p.on('close', (code) => res({ stdout, stderr, code }));
  });
}

// Each spawn compiles the CLI through tsx: slow on a loaded machine.
vi.setConfig({ testTimeout: 180_000 });

let fake: FakeLlm | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('gaia2-runner judge --scenario --events', () => {
  it('hard-only: exit 1 and the reference failure for an extra write; exit 0 for the oracle log', async () => {
    const bad = await cli(['--scenario', SCEN, '--events', ev('extra_delete_email'), '--json']);
    expect(bad.code).toBe(1);
    const v = JSON.parse(bad.stdout);
    expect(v).toMatchObject({ success: false, status: 'stopped', judge_mode: 'hard-only', nb_turns: 1 });
    expect(v.failure_reason).toBe("Tool count mismatch: agent={'EmailClientV2__delete_email': 1}, oracle={}");
    expect(v.turns).toHaveLength(1);
    const ok = await cli(['--scenario', SCEN, '--events', ev('oracle')]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toBe('search_email_flight_code: pass [hard-only]\n');
  });

  it('a judge model needs a provider (usage error, exit 2)', async () => {
    const r = await cli(['--scenario', SCEN, '--events', ev('oracle'), '--judge-model', 'm']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--judge-model needs --judge-provider');
  });

  it('soft checks through the judge LLM; the key comes from the named variable and never shows', async () => {
    fake = await startFakeLlm({ format: 'openai-chat', script: [say('Verdict: [[Failure]]')] });
    const args = ['--scenario', SCEN, '--events', ev('wrong_answer_text'), '--judge-provider', 'openai-compat', '--judge-model', 'judge-m', '--judge-base-url', fake.url, '--judge-api-key-env', 'MY_JUDGE_KEY', '--json'];
    const r = await cli(args, { MY_JUDGE_KEY: KEY });
    expect(r.code).toBe(1);
    const v = JSON.parse(r.stdout);
    expect(v.judge_mode).toBe('llm');
    expect(v.judge).toEqual({ mode: 'llm', provider: 'openai-compat', model: 'judge-m', prompt_version: 'default' });
    expect(v.failure_reason).toContain('user_message_checker (agent_args=');
    expect(fake.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(r.stdout + r.stderr).not.toContain(KEY);

    const hard = await cli([...args.slice(0, 4), '--no-llm', '--json']);
    expect(JSON.parse(hard.stdout)).toMatchObject({ success: true, judge_mode: 'hard-only' });
  });

  it('401 from the judge LLM: exit 2 with provider_error', async () => {
    fake = await startFakeLlm({ format: 'openai-chat', script: [fail(401)] });
    const r = await cli(['--scenario', SCEN, '--events', ev('wrong_answer_text'), '--judge-provider', 'openai-compat', '--judge-model', 'm', '--judge-base-url', fake.url, '--json'], { OPENAI_COMPAT_API_KEY: KEY });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ success: null, status: 'error', error_kind: 'provider_error' });
    expect(r.stdout).not.toContain(KEY);
  });
});

describe('gaia2-runner judge with the Jev judge (provider typesafe)', () => {
  it('scores through the System One service with TYPESAFE_API_KEY; bad options are exit 2 naming the flag', async () => {
    const svc = await startTypesafeDouble({ script: [0.2], apiKey: KEY });
    try {
      const args = ['--scenario', SCEN, '--events', ev('wrong_answer_text'), '--judge-provider', 'typesafe', '--judge-model', 'jev-latest', '--judge-base-url', svc.url, '--json'];
      const r = await cli([...args, '--judge-extra-body', '{"threshold":0.5}'], { TYPESAFE_API_KEY: KEY });
      expect(r.code, r.stderr).toBe(1);
      const v = JSON.parse(r.stdout);
      expect(v.judge).toMatchObject({ mode: 'llm', provider: 'typesafe', model: 'jev-latest' });
      expect(v.failure_reason).toContain('user_message_checker (agent_args=');
      expect(svc.requests).toHaveLength(1);
      expect(svc.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(r.stdout + r.stderr).not.toContain(KEY);

      const bad = await cli([...args, '--judge-extra-body', '{"reasoning_effort":"low"}'], { TYPESAFE_API_KEY: KEY });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('--judge-extra-body: with the typesafe judge it may only hold threshold and timeout');
      expect(svc.requests).toHaveLength(1);
    } finally {
      await svc.close();
    }
  });
});

describe('gaia2-runner judge --output-dir', () => {
  it('writes rejudge.json beside each result.json, leaves originals alone, prints both verdicts', async () => {
    const root = mkdtempSync(join(tmpdir(), 'gaia2-rejudge-'));
    const runs = [
      { dir: 'search/a', events: 'extra_delete_email', original: true, scenarioFile: SCEN },
      { dir: 'search/b', events: 'oracle', original: true, scenarioFile: '/nowhere/scenario.json', copy: true },
      { dir: 'search/c', events: null, original: null, scenarioFile: SCEN },
    ];
    for (const r of runs) {
      const d = join(root, r.dir);
      mkdirSync(d, { recursive: true });
      const result = { scenario_id: 'search_email_flight_code', success: r.original, status: r.original ? 'pass' : 'error', scenario_file: r.scenarioFile };
      writeFileSync(join(d, 'result.json'), JSON.stringify(result));
      if (r.events) copyFileSync(ev(r.events), join(d, 'events.jsonl'));
      if (r.copy) copyFileSync(SCEN, join(d, 'scenario.json'));
    }
    const before = readFileSync(join(root, 'search/a/result.json'), 'utf8');
    const r = await cli(['--output-dir', root]);
    expect(r.code).toBe(2); // run c has no events.jsonl
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^run\s+original\s+rejudged\s+\[hard-only\]$/);
    expect(lines[1]).toMatch(/^search\/a\s+pass\s+fail\s+changed$/);
    expect(lines[2]).toMatch(/^search\/b\s+pass\s+pass$/);
    expect(lines[3]).toMatch(/^search\/c\s+error\s+error$/);
    expect(lines[4]).toBe('3 run(s) re-judged, 1 changed, 1 error(s); verdicts in rejudge.json beside each result.json');
    expect(readFileSync(join(root, 'search/a/result.json'), 'utf8')).toBe(before);
    const a = JSON.parse(readFileSync(join(root, 'search/a/rejudge.json'), 'utf8'));
    expect(a).toMatchObject({ scenario_id: 'search_email_flight_code', success: false, status: 'stopped', judge_mode: 'hard-only', original: { success: true, status: 'pass' } });
    expect(JSON.parse(readFileSync(join(root, 'search/b/rejudge.json'), 'utf8')).success).toBe(true);
    expect(JSON.parse(readFileSync(join(root, 'search/c/rejudge.json'), 'utf8'))).toMatchObject({ status: 'error', error_kind: 'artifact_error' });
    expect(existsSync(join(root, 'search/a/rejudge.json'))).toBe(true);
  });

  it("with a judge LLM, each run's judge calls are traced beside it and their tokens are in rejudge.json", async () => {
    fake = await startFakeLlm({ format: 'openai-chat', script: [], fallback: say('Verdict: [[Failure]]', { usage: { input: 300, output: 7, cacheRead: 100 } }) });
    const root = mkdtempSync(join(tmpdir(), 'gaia2-rejudge-llm-'));
    for (const d of ['search/a', 'search/b']) {
      mkdirSync(join(root, d), { recursive: true });
      writeFileSync(join(root, d, 'result.json'), JSON.stringify({ scenario_id: 'search_email_flight_code', success: true, status: 'pass', scenario_file: SCEN }));
      copyFileSync(ev('wrong_answer_text'), join(root, d, 'events.jsonl'));
    }
    const r = await cli(['--output-dir', root, '--judge-provider', 'openai-compat', '--judge-model', 'judge-m', '--judge-base-url', fake.url], { OPENAI_COMPAT_API_KEY: KEY });
    expect(r.stderr).not.toContain(KEY);
    for (const d of ['search/a', 'search/b']) {
      const lines = readFileSync(join(root, d, 'rejudge_trace.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      expect(lines.length).toBeGreaterThan(0);
      const sum = lines.reduce((n: number, l: { usage: { input_tokens: number } }) => n + l.usage.input_tokens, 0);
      const rj = JSON.parse(readFileSync(join(root, d, 'rejudge.json'), 'utf8'));
      expect(rj.usage.judge).toMatchObject({ model: 'judge-m', source: 'trace', llm_calls: lines.length, input_tokens: sum, cache_read_tokens: 100 * lines.length });
      expect(sum).toBe(400 * lines.length); // OpenAI counts cached input inside prompt_tokens
    }
  });
});

describe('gaia2-runner judge with the reference judge settings', () => {
  const omniSystem = (body: { messages: Array<{ role: string; content: string }> }) => body.messages.find((m) => m.role === 'system')!.content;

  it('--judge-prompt-version and --judge-extra-body reach the judge request and the verdict', async () => {
    fake = await startFakeLlm({ format: 'openai-chat', script: [say('Verdict: [[Success]]')] });
    const r = await cli(
      ['--scenario', SCEN, '--events', ev('wrong_answer_text'), '--judge-provider', 'openai-compat', '--judge-model', 'gpt-oss-120b', '--judge-base-url', fake.url,
        '--judge-prompt-version', 'omnilingual-gaia2', '--judge-extra-body', '{"reasoning_effort":"low"}', '--json'],
      { OPENAI_COMPAT_API_KEY: KEY },
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).judge).toEqual({ mode: 'llm', provider: 'openai-compat', model: 'gpt-oss-120b', prompt_version: 'omnilingual-gaia2', extra_body: { reasoning_effort: 'low' } });
    expect(fake.requests[0]!.body.reasoning_effort).toBe('low');
    expect(omniSystem(fake.requests[0]!.body as never)).toMatch(/another language than the reference/);
  });

  it('re-judging a run uses the prompt set its run_config.json records; an unknown name is exit 2 naming where it came from', async () => {
    fake = await startFakeLlm({ format: 'openai-chat', script: [], fallback: say('Verdict: [[Success]]') });
    const root = mkdtempSync(join(tmpdir(), 'gaia2-rejudge-omni-'));
    mkdirSync(join(root, 'search/a'), { recursive: true });
    writeFileSync(join(root, 'search/a/result.json'), JSON.stringify({ scenario_id: 'search_email_flight_code', success: false, status: 'fail', scenario_file: SCEN }));
    copyFileSync(ev('wrong_answer_text'), join(root, 'search/a/events.jsonl'));
    // a record of the earlier layout (flat judge keys only): the one reader takes its prompt set
    writeFileSync(join(root, 'run_config.json'), JSON.stringify({ judge_model: 'j', judge_provider: 'openai', judge_prompt_version: 'omnilingual-gaia2' }));
    const flags = ['--output-dir', root, '--judge-provider', 'openai-compat', '--judge-model', 'judge-m', '--judge-base-url', fake.url];
    const r = await cli(flags, { OPENAI_COMPAT_API_KEY: KEY });
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(join(root, 'search/a/rejudge.json'), 'utf8')).judge.prompt_version).toBe('omnilingual-gaia2');
    expect(omniSystem(fake.requests[0]!.body as never)).toMatch(/another language than the reference/);

    // the current layout: judge_options.prompt_version
    writeFileSync(join(root, 'run_config.json'), JSON.stringify({ schema_version: 2, target: { kind: 'scenario', scenario: SCEN }, agent_options: { name: 'oracle', image: 'i' }, run_options: {}, judge_options: { provider: 'openai', model: 'j', prompt_version: 'omnilingual-v2' } }));
    const bad = await cli(flags, { OPENAI_COMPAT_API_KEY: KEY });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`judge_options.prompt_version in ${join(root, 'run_config.json')}: unknown judge prompt version "omnilingual-v2"`);
    // a pass@N root: run_1's record, by the reader's one rule
    mkdirSync(join(root, 'run_1'));
    renameSync(join(root, 'run_config.json'), join(root, 'run_1', 'run_config.json'));
    const fromRun1 = await cli(flags, { OPENAI_COMPAT_API_KEY: KEY });
    expect(fromRun1.code).toBe(2);
    expect(fromRun1.stderr).toContain(`judge_options.prompt_version in ${join(root, 'run_1', 'run_config.json')}: unknown judge prompt version "omnilingual-v2"`);
    const flag = await cli([...flags, '--judge-prompt-version', 'omni'], { OPENAI_COMPAT_API_KEY: KEY });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--judge-prompt-version: unknown judge prompt version "omni" (known: default, omnilingual-gaia2)');
  });
});
