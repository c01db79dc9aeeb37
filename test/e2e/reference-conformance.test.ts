// Our image driven exactly as the reference Python runner drives an agent image (podman CLI,
// --network=host, health checked inside the container until `connected`, /status polled from
// the host every 2 s): the default agent against an instant model (it replies and leaves
// before the first health poll, so `connected` must stay true), against a slow model, and the
// oracle profile (no PROVIDER: the image picks the oracle by itself). All expect PASS. Then the
// newer runner's optional variables (judge prompt set, extra_body, idle timeout) and their effect.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_IMAGE } from '../../runner/src/image/index.js';
import { say, startFakeLlm, type FakeLlm, type FakeReply } from '../helpers/fake-llm/index.js';
import { freePort } from '../helpers/free-port.js';
import { oraclePlay, scriptFor } from './helpers/oracle-llm-script.js';
import { detectProfile, runLikeReference, type ReferenceRunOptions, type ReferenceRunResult } from './helpers/reference-driver.js';

const root = join(import.meta.dirname, '..', '..');
const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
// The reference picks its oracle profile from the image name; our own tag for this file only.
const oracleImage = `${image.replace(/:[^/:]*$/, '')}:conformance-oracle-${process.pid}`;
const scenario = join(root, 'examples/scenarios/execution/exec_shopping_bottle_order.json');
const play = oraclePlay(join(root, 'test/fixtures/golden/cases/exec_shopping_bottle_order/oracle.events.jsonl'));
const KEY = 'sk-conformance-agent-0123456789';
const JUDGE_KEY = 'sk-conformance-judge-0123456789';

let judge: FakeLlm;
beforeAll(async () => {
  execFileSync('podman', ['tag', image, oracleImage]);
  // The judge accepts whatever it is asked about (the oracle's own reply needs no LLM anyway).
  judge = await startFakeLlm({ format: 'openai-chat', script: [], fallback: say('Verdict: [[Success]] / [[True]]') });
});
afterAll(async () => {
  await judge?.close();
  try {
    execFileSync('podman', ['untag', oracleImage, oracleImage]);
  } catch {
    /* already gone */
  }
});

/** The newer reference runner's optional settings, as its entrypoint variables. */
type Newer = Pick<ReferenceRunOptions, 'idleTimeoutSec'> & { promptVersion?: string; extraBody?: Record<string, unknown> };

async function referenceRun(img: string, agent: ReferenceRunOptions['agent'], newer: Newer = {}): Promise<ReferenceRunResult> {
  return runLikeReference({
    image: img,
    scenarioFile: scenario,
    adapterPort: await freePort(),
    outputDir: mkdtempSync(join(tmpdir(), 'gaia2-conformance-')),
    agent,
    judge: {
      provider: 'openai-compat', model: 'judge-m', baseUrl: judge.url, apiKey: JUDGE_KEY,
      ...(newer.promptVersion ? { promptVersion: newer.promptVersion } : {}),
      ...(newer.extraBody ? { extraBody: newer.extraBody } : {}),
    },
    ...(newer.idleTimeoutSec !== undefined ? { idleTimeoutSec: newer.idleTimeoutSec } : {}),
    healthTimeoutSec: 60,
    timeoutSec: 180,
  });
}

async function withModel(script: FakeReply[], newer: Newer = {}): Promise<{ r: ReferenceRunResult; fake: FakeLlm }> {
  const fake = await startFakeLlm({ format: 'anthropic', script });
  try {
    const r = await referenceRun(image, { provider: 'anthropic', model: 'fake-anthropic', apiKey: KEY, baseUrl: fake.url }, newer);
    return { r, fake };
  } finally {
    await fake.close();
  }
}

/** daemon_status.json as the reference copied it out of the container. */
const statusFile = (r: ReferenceRunResult): Record<string, unknown> =>
  JSON.parse(readFileSync(join(r.artifactDir, 'daemon_status.json'), 'utf8')) as Record<string, unknown>;

describe('the reference runner drives our image (podman CLI, --network=host)', () => {
  it('profiles come from the image name as the reference decides them', () => {
    expect(detectProfile(image)).toBe('default');
    expect(detectProfile(oracleImage)).toBe('oracle');
  });

  it('default agent, instant model: PASS, and /health still says connected after the agent left', async () => {
    const { r, fake } = await withModel(scriptFor(play, 'shell'));
    expect(r.error ?? r.failureReasons ?? null).toBeNull();
    expect(r.success).toBe(true);
    expect(r.statusSource).toBe('adapter');
    expect(statusFile(r)).toMatchObject({ status: 'complete', agent_runtime: 'default', agent_runtime_chosen_by: 'PROVIDER', ever_connected: true });
    expect(fake.requests.length).toBe(play.actions.length + 1);
    expect(r.healthSeen.at(-1)).toMatchObject({ ok: true, connected: true });
    expect(r.healthAfterEnd).toMatchObject({ ok: true, connected: true, agent_connected: false, status: 'complete' });
    expect(r.agentResponse).toBe(play.reply);
    // The key reached the model through the reference's variables, not argv.
    expect(fake.requests[0]!.headers['x-api-key']).toBe(KEY);
    expect(r.eventsText).toContain('"fn": "checkout"');
  }, 300_000);

  it('oracle profile (no PROVIDER, no MODEL, no key): the image plays the oracle by itself, PASS', async () => {
    const r = await referenceRun(oracleImage, { provider: 'anthropic', model: 'unused', apiKey: KEY, baseUrl: 'http://127.0.0.1:9' });
    expect(r.env.map(([k]) => k)).not.toContain('PROVIDER');
    expect(r.env.map(([k]) => k)).not.toContain('BASE_URL');
    expect(r.error ?? r.failureReasons ?? null).toBeNull();
    expect(r.success).toBe(true);
    expect(statusFile(r)).toMatchObject({ status: 'complete', agent_runtime: 'oracle', agent_runtime_chosen_by: 'no PROVIDER' });
    expect(r.healthAfterEnd).toMatchObject({ ok: true, connected: true });
    expect(r.daemonStatus).toMatchObject({ status: 'complete', judgment: { success: true } });
  }, 300_000);

  it('default agent, slow model (each answer 2.5 s): PASS, the wait sees it connected while it works', async () => {
    const slow = scriptFor(play, 'shell').map((x) => ({ ...x, delayMs: 2500 }));
    const { r } = await withModel(slow);
    expect(r.error ?? r.failureReasons ?? null).toBeNull();
    expect(r.success).toBe(true);
    expect(r.healthSeen.at(-1)).toMatchObject({ ok: true, connected: true });
    expect(r.healthAfterEnd).toMatchObject({ ok: true, connected: true, status: 'complete' });
  }, 300_000);

  it('newer runner settings: the prompt set and extra_body reach every judge request of our image', async () => {
    const before = judge.requests.length;
    // the agent's own wording for the reply, so the reply's check needs the judge
    const { r } = await withModel(scriptFor({ ...play, reply: `All set: ${play.reply} Let me know if you need anything else.` }, 'shell'), {
      promptVersion: 'omnilingual-gaia2',
      extraBody: { reasoning_effort: 'low' },
    });
    expect(r.env.filter(([k]) => k.startsWith('GAIA2_JUDGE_P') || k === 'GAIA2_JUDGE_EXTRA_BODY')).toEqual([
      ['GAIA2_JUDGE_PROVIDER', 'openai-compat'],
      ['GAIA2_JUDGE_PROMPT_VERSION', 'omnilingual-gaia2'],
      ['GAIA2_JUDGE_EXTRA_BODY', '{"reasoning_effort":"low"}'],
    ]);
    expect(r.error ?? r.failureReasons ?? null).toBeNull();
    expect(r.success).toBe(true);
    const asked = judge.requests.slice(before);
    expect(asked.length).toBeGreaterThan(0);
    for (const q of asked) {
      expect(q.body.reasoning_effort).toBe('low');
      const system = (q.body.messages as Array<{ role: string; content: string }>).find((m) => m.role === 'system')!.content;
      // a sentence only the omnilingual-gaia2 reply prompt has
      expect(system).toContain('Either text may be written in any language');
    }
  }, 300_000);

  it('newer runner settings: GAIA2_IDLE_TIMEOUT is the daemon\'s idle limit (3 s against a model that takes 10 s)', async () => {
    const slow = scriptFor(play, 'shell').map((x) => ({ ...x, delayMs: 10_000 }));
    const { r } = await withModel(slow, { idleTimeoutSec: 3 });
    expect(r.env).toContainEqual(['GAIA2_IDLE_TIMEOUT', '3.0']);
    expect(r.success).toBeNull();
    expect(r.daemonStatus).toMatchObject({ status: 'error' });
    expect(String(r.daemonStatus.reason)).toMatch(/^idle timeout: no agent activity for \d+s/);
  }, 300_000);
});
