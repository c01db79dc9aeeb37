// The LLM judge inside a real container: the daemon loads its provider layer (the lazily
// imported judge-llm.mjs bundle) only for a soft check, and reaches a scripted judge on the
// host's 127.0.0.1 through the runner's relay. A scripted agent plays the adaptability
// scenario's oracle with its own wording for a chat message, so the content check needs the
// LLM: accepted → pass; rejected → fail with the soft checker named; 401 → judge error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScenarioResult } from '@gaia2/contract';
import type { AgentFlags } from '../../runner/src/config/cli-flags.js';
import { OMNILINGUAL_PROMPTS } from '../../agent-image/src/judge/prompts-omnilingual.js';
import { PROMPTS } from '../../agent-image/src/judge/prompts.js';
import { connectEngine, type UnitBackend } from '../../runner/src/engine/index.js';
import { runKenjiJudged } from './helpers/kenji-judged.js';
import { fail, say, startFakeLlm, type FakeLlm, type FakeScriptItem } from '../helpers/fake-llm/index.js';

const KEY_VAR = 'JUDGE_E2E_API_KEY';
const KEY = 'sk-judge-e2e-0123456789abcdef';
let engine: UnitBackend;
beforeAll(async () => {
  engine = await connectEngine();
});
afterAll(async () => {
  await engine?.close();
});

/** More judge flags for the plan, and variables set in the container as they are (bypassing the runner's checks). */
interface JudgedOptions {
  flags?: Partial<AgentFlags>;
  containerEnv?: Record<string, string>;
}

async function judged(script: FakeScriptItem[], fallback?: FakeScriptItem, o: JudgedOptions = {}): Promise<{ result: ScenarioResult; fake: FakeLlm }> {
  const fake = await startFakeLlm({ format: 'openai-chat', script, ...(fallback ? { fallback } : {}) });
  try {
    const result = await runKenjiJudged(engine, {
      judgeFlags: { judgeModel: 'judge-m', judgeProvider: 'openai-compat', judgeBaseUrl: fake.url, judgeApiKeyEnv: KEY_VAR, ...o.flags },
      hostEnv: { [KEY_VAR]: KEY }, ...(o.containerEnv ? { containerEnv: o.containerEnv } : {}), label: 'judge-e2e',
    });
    return { result, fake };
  } finally {
    await fake.close();
  }
}

describe('LLM judge in the container (real containers)', () => {
  it('a reworded message is judged by the LLM: accepted → pass', async () => {
    const { result, fake } = await judged([], say('Verdict: [[Success]] / [[True]]'));
    expect(result.failure_reasons ?? result.error ?? null).toBeNull();
    expect(result.status).toBe('pass');
    expect(fake.requests.length).toBeGreaterThan(0);
    // The judge saw the agent's own wording, and the key arrived as the bearer token.
    expect(JSON.stringify(fake.requests.map((r) => r.body))).toContain('is 2pm today still fine');
    expect(fake.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  }, 240_000);

  it('rejected by the LLM → fail, naming the message that could not be matched', async () => {
    const { result, fake } = await judged([], say('Verdict: [[Failure]] / [[False]]'));
    expect(result.status).toBe('fail');
    expect(String(result.failure_reasons ?? '')).toMatch(/send_message/);
    expect(fake.requests.length).toBeGreaterThan(0);
  }, 240_000);

  it('a 401 from the judge is an error (provider_error), not a verdict', async () => {
    const { result } = await judged([fail(401)], fail(401));
    expect(result.status).toBe('error');
    expect(result.error_kind).toBe('provider_error');
    expect(JSON.stringify(result)).not.toContain(KEY);
  }, 240_000);

  it('upstream judge settings: the omnilingual-gaia2 prompts are asked, and every request carries extra_body', async () => {
    const { result, fake } = await judged([], say('Verdict: [[Success]] / [[True]]'), {
      flags: { judgePromptVersion: 'omnilingual-gaia2', judgeExtraBody: '{"reasoning_effort":"low","chat_template_kwargs":{"enable_thinking":true}}' },
    });
    expect(result.status).toBe('pass');
    expect(fake.requests.length).toBeGreaterThan(0);
    // a template as a pattern: its {{slots}} match whatever the judge filled in
    const pattern = (t: string) => new RegExp(`^${t.split(/\{\{\s*\w+\s*\}\}/).map((x) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^]*')}$`);
    const matchesAny = (set: object, text: string) => Object.values(set).some((p: { system: string }) => pattern(p.system).test(text));
    for (const r of fake.requests) {
      expect(r.body.reasoning_effort).toBe('low');
      expect(r.body.chat_template_kwargs).toEqual({ enable_thinking: true });
      const system = (r.body.messages as Array<{ role: string; content: string }>).find((m) => m.role === 'system')!.content;
      // the chat message's check is one of the six the set changes: its text is the omnilingual one
      expect(matchesAny(OMNILINGUAL_PROMPTS, system)).toBe(true);
      expect(matchesAny(PROMPTS, system)).toBe(false);
    }
  }, 240_000);

  it('the image refuses an unknown prompt set at start, with a status naming the variable', async () => {
    const { result, fake } = await judged([], say('Verdict: [[Success]] / [[True]]'), { containerEnv: { GAIA2_JUDGE_PROMPT_VERSION: 'omnilingual-v9' } });
    expect(result.status).toBe('error');
    expect(JSON.stringify(result)).toContain('GAIA2_JUDGE_PROMPT_VERSION: unknown judge prompt version \\"omnilingual-v9\\" (known: default, omnilingual-gaia2)');
    expect(fake.requests).toHaveLength(0);
  }, 240_000);
});
