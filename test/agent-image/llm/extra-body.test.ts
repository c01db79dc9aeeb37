// extra_body: parsed from a setting, merged into the provider request as it is, and what the
// trace records is what was sent.
import { afterEach, describe, expect, it } from 'vitest';
import { completeText, createModel, LlmConfigError, parseExtraBody } from '../../../agent-image/src/llm/index.js';
import { say, startFakeLlm, type FakeLlm } from '../../helpers/fake-llm/index.js';
import { readTrace, tempTraceFile } from './helpers.js';

describe('parseExtraBody', () => {
  it('unset, blank and {} are none; an object is kept as it is', () => {
    for (const v of [undefined, '', '  ', '{}']) expect(parseExtraBody(v, 'V')).toBeUndefined();
    expect(parseExtraBody('{"reasoning_effort":"low","n":{"a":[1,2]}}', 'V')).toEqual({ reasoning_effort: 'low', n: { a: [1, 2] } });
  });
  it('anything but a JSON object is an error naming the setting', () => {
    expect(() => parseExtraBody('{reasoning_effort: low}', 'GAIA2_JUDGE_EXTRA_BODY')).toThrow(LlmConfigError);
    expect(() => parseExtraBody('{reasoning_effort: low}', 'GAIA2_JUDGE_EXTRA_BODY')).toThrow(/^GAIA2_JUDGE_EXTRA_BODY must be a JSON object/);
    expect(() => parseExtraBody('[1]', 'X')).toThrow('X must be a JSON object (got [1])');
    expect(() => parseExtraBody('"low"', 'X')).toThrow(/X must be a JSON object/);
  });
});

describe('createModel with extraBody', () => {
  let fake: FakeLlm | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  it.each([
    ['openai-chat', 'openai-compat'],
    ['anthropic', 'anthropic'],
  ] as const)('%s: every request carries the fields, replacing ones of the same name; the trace shows them', async (format, provider) => {
    fake = await startFakeLlm({ format, script: [say('one'), say('two')] });
    const traceFile = tempTraceFile();
    const llm = createModel({ provider, model: 'm', apiKey: 'k', baseUrl: fake.url, thinking: 'off', traceFile, extraBody: { reasoning_effort: 'low', model: 'served-name' } });
    expect(await completeText(llm, 'sys', 'first')).toBe('one');
    expect(await completeText(llm, 'sys', 'second')).toBe('two');
    expect(fake.requests.map((r) => [r.body.reasoning_effort, r.body.model])).toEqual([
      ['low', 'served-name'],
      ['low', 'served-name'],
    ]);
    await llm.trace.flush();
    const traced = readTrace(traceFile).map((l) => l.request);
    expect(traced).toHaveLength(2);
    expect(traced.every((b) => b.reasoning_effort === 'low' && b.model === 'served-name')).toBe(true);
  });
});
