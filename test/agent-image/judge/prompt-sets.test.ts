// Prompt sets: the choice by name, the six checkers omnilingual-gaia2 changes (each reviewed
// against the default prompt for slots and answer markers), and that a judged run really sends
// the chosen set's texts, with extra_body, to a provider (the fake LLM double).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadScenarioText } from '../../../agent-image/src/scenario/index.js';
import { createJudgeLlm, judgeEventLog, parsePromptVersion, promptSet, PROMPT_VERSIONS } from '../../../agent-image/src/judge/index.js';
import { OMNILINGUAL_PROMPTS } from '../../../agent-image/src/judge/prompts-omnilingual.js';
import { PROMPTS } from '../../../agent-image/src/judge/prompts.js';
import { say, startFakeLlm, type FakeLlm } from '../../helpers/fake-llm/index.js';
import { GOLDEN_DIR, readEventLines } from './golden.js';

const SIX = ['email_checker', 'event_checker', 'message_checker', 'signature_checker', 'tone_checker', 'user_message_checker'];
const slots = (t: string) => [...t.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe('choosing a prompt set', () => {
  it('unset, empty and "default" are the default set; the two names are known', () => {
    expect(PROMPT_VERSIONS).toEqual(['default', 'omnilingual-gaia2']);
    for (const v of [undefined, null, '', '  ', 'default']) expect(parsePromptVersion(v, 'X')).toBe('default');
    expect(parsePromptVersion(' omnilingual-gaia2 ', 'X')).toBe('omnilingual-gaia2');
    expect(promptSet('default')).toBe(PROMPTS);
  });

  it('an unknown name is an error naming the setting and listing the known names', () => {
    expect(() => parsePromptVersion('omnilingual', '[judge].prompt_version')).toThrow(
      '[judge].prompt_version: unknown judge prompt version "omnilingual" (known: default, omnilingual-gaia2)',
    );
  });
});

describe('the omnilingual-gaia2 set', () => {
  const omni = promptSet('omnilingual-gaia2');

  it('changes exactly the six checkers the reference changes and keeps the others', () => {
    expect(Object.keys(OMNILINGUAL_PROMPTS).sort()).toEqual(SIX);
    for (const name of Object.keys(PROMPTS) as Array<keyof typeof PROMPTS>) {
      if (SIX.includes(name)) expect(omni[name]!.system).not.toBe(PROMPTS[name]!.system);
      else expect(omni[name]).toBe(PROMPTS[name]);
    }
  });

  it.each(SIX)('%s keeps the default prompt\'s inputs and answer format, and speaks of any language', (name) => {
    const mine = omni[name as keyof typeof omni]!;
    const base = PROMPTS[name as keyof typeof PROMPTS]!;
    expect([mine.success, mine.failure]).toEqual([base.success, base.failure]);
    expect(slots(mine.system + mine.user)).toEqual(slots(base.system + base.user));
    expect(mine.system).toContain(`"Verdict: ${mine.success}" or "Verdict: ${mine.failure}"`);
    expect(mine.system).toMatch(/any language/);
  });

  it('the signature check names placeholders in other languages; the content check ignores language', () => {
    expect(omni.signature_checker!.system).toMatch(/Votre nom/);
    expect(PROMPTS.signature_checker!.system).not.toMatch(/Votre nom/);
    expect(omni.user_message_checker!.system).toMatch(/another language than the reference/);
  });
});

describe('a judged run sends the chosen prompts and extra_body to the provider', () => {
  const SCENARIO = 'scenarios/search/search_email_flight_code.json';
  const scenario = loadScenarioText(readFileSync(join(GOLDEN_DIR, SCENARIO), 'utf8'), SCENARIO);
  const WRONG = readEventLines('cases/search_email_flight_code/wrong_answer_text.events.jsonl');
  let fake: FakeLlm | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  const run = async (promptVersion: 'default' | 'omnilingual-gaia2', extraBody?: Record<string, unknown>) => {
    fake = await startFakeLlm({ format: 'openai-chat', script: [say('Verdict: [[Success]]')] });
    const llm = createJudgeLlm({ provider: 'openai-compat', model: 'gpt-oss-120b', apiKey: 'EMPTY', baseUrl: fake.url, ...(extraBody ? { extraBody } : {}) });
    const v = await judgeEventLog(scenario, WRONG, { llm, promptVersion });
    expect(fake.requests).toHaveLength(1);
    return { v, body: fake.requests[0]!.body as Record<string, any> };
  };

  it('omnilingual-gaia2: the user-message check is asked with the omnilingual text; extra_body lands top-level', async () => {
    const { v, body } = await run('omnilingual-gaia2', { reasoning_effort: 'low', chat_template_kwargs: { enable_thinking: true } });
    expect(v.success).toBe(true);
    expect(body.reasoning_effort).toBe('low');
    expect(body.chat_template_kwargs).toEqual({ enable_thinking: true });
    expect(body.model).toBe('gpt-oss-120b');
    expect(body.temperature).toBe(0);
    const system = body.messages.find((m: { role: string }) => m.role === 'system').content;
    expect(system).toBe(OMNILINGUAL_PROMPTS.user_message_checker!.system);
  });

  it('default: the default text, and no extra fields without extra_body', async () => {
    const { body } = await run('default');
    expect(body).not.toHaveProperty('reasoning_effort');
    expect(body.messages.find((m: { role: string }) => m.role === 'system').content).toBe(PROMPTS.user_message_checker!.system);
  });
});
