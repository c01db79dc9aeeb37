// The Jev judge inside a real container: the runner's plan for provider "typesafe" reaches the
// daemon, which scores the soft checks on TypeSafe's System One wire format against a double on
// the host's 127.0.0.1 (through the runner's relay). A scripted agent plays the adaptability
// scenario's oracle with its own wording for a chat message, so the content check needs it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScenarioResult } from '@gaia2/contract';
import { connectEngine, type UnitBackend } from '../../runner/src/engine/index.js';
import { runKenjiJudged } from './helpers/kenji-judged.js';
import { startTypesafeDouble, type TypesafeDouble } from '../helpers/typesafe-double/index.js';

const KEY = 'ts-jev-e2e-0123456789abcdef';
let engine: UnitBackend;
beforeAll(async () => {
  engine = await connectEngine();
});
afterAll(async () => {
  await engine?.close();
});

async function judged(probability: number, extraBody = '{"threshold":0.5,"timeout":20}', containerEnv: Record<string, string> = {}): Promise<{ result: ScenarioResult; svc: TypesafeDouble }> {
  const svc = await startTypesafeDouble({ apiKey: KEY, respond: () => probability });
  try {
    // the key is found under the reference's variable, by the provider's name
    const result = await runKenjiJudged(engine, {
      judgeFlags: { judgeModel: 'jev-latest', judgeProvider: 'typesafe', judgeBaseUrl: svc.url, judgeExtraBody: extraBody },
      hostEnv: { TYPESAFE_API_KEY: KEY }, containerEnv, label: 'jev-e2e',
    });
    return { result, svc };
  } finally {
    await svc.close();
  }
}

describe('Jev judge in the container (real containers)', () => {
  it('a high probability passes the reworded message; the service saw the candidate and the key', async () => {
    const { result, svc } = await judged(0.92);
    expect(result.failure_reasons ?? result.error ?? null).toBeNull();
    expect(result.status).toBe('pass');
    expect(svc.requests.length).toBeGreaterThan(0);
    const r = svc.requests[0]!;
    expect(r.path).toBe('/v1/systemone');
    expect(r.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(r.body.model).toBe('jev-latest');
    expect(r.body.questions.verdict.type).toBe('noul');
    expect(JSON.stringify(r.body.state.messages)).toContain('is 2pm today still fine');
    // extra_body configures the adapter; it is never sent to the service
    expect(r.body).not.toHaveProperty('threshold');
  }, 240_000);

  it('a probability under the threshold fails the turn, naming the message', async () => {
    const { result, svc } = await judged(0.3, '{"threshold":0.4}');
    expect(result.status).toBe('fail');
    expect(String(result.failure_reasons ?? '')).toMatch(/send_message/);
    expect(svc.requests.length).toBeGreaterThan(0);
  }, 240_000);

  it('options the adapter does not know stop the image at start, with a status naming the variable', async () => {
    const { result, svc } = await judged(0.9, '{"threshold":0.5}', { GAIA2_JUDGE_EXTRA_BODY: '{"reasoning_effort":"low"}' });
    expect(result.status).toBe('error');
    expect(JSON.stringify(result)).toContain('GAIA2_JUDGE_EXTRA_BODY: with the typesafe judge it may only hold threshold and timeout (unknown: reasoning_effort)');
    expect(JSON.stringify(result)).not.toContain(KEY);
    expect(svc.requests).toHaveLength(0);
  }, 240_000);
});
