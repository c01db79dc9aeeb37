// Errors counted by evidence, end to end with a bring-your-own launcher in real containers
// (docs/agents.md, "When the program fails"). The launcher asks its model once per turn through
// BASE_URL (the run's model gateway, with its container's token) and then plays the rules of
// examples/agents/shell-agent; it exits non-zero when the model call fails or when it has no
// rule for the message. The provider is a double of Anthropic Messages on this machine.
//   - No rule for the message, the model call answered: the program failed on its own. Its
//     failure text is the judged reply (FAIL), the run counts, and report.md counts it under
//     "Program failed".
//   - The provider refuses the call (HTTP 400): the gateway's record shows it in the failed
//     turn, so the run is a provider_error, out of the denominator; `--retry` with the provider
//     healthy runs it again and it passes.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScenarioResult } from '@gaia2/contract';
import type { DaemonStatus } from '@gaia2/contract/status';
import type { UnitBackend } from '../../../runner/src/engine/index.js';
import { DEFAULT_IMAGE } from '../../../runner/src/image/index.js';
import type { Report } from '../../../runner/src/report/index.js';
import { say, startFakeLlm, type FakeLlm } from '../../helpers/fake-llm/index.js';
import { traffic } from '../helpers/run-dir.js';
import { connectE2eEngine, eachEngine, engineEnv, type E2eEngine } from '../helpers/engines.js';
import { cli } from './helpers/third-party-run.js';

const root = join(import.meta.dirname, '..', '..', '..');
const world = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
const suffix = world.split(':').pop() ?? 'latest';
const KEY = `sk-byo-failures-${process.pid}`;

/** One model call per turn through the gateway, then the shell-agent's rules; exit 2 when the call fails. */
const LAUNCHER = `#!/bin/bash
set -uo pipefail
msg=$(cat)
code=$(curl -s -o "$GAIA2_TRACE_DIR/model-turn-$GAIA2_TURN.json" -w '%{http_code}' -X POST "$BASE_URL/v1/messages" \\
  -H "x-api-key: $API_KEY" -H 'anthropic-version: 2023-06-01' -H 'content-type: application/json' \\
  --data "{\\"model\\": \\"$MODEL\\", \\"max_tokens\\": 64, \\"messages\\": [{\\"role\\": \\"user\\", \\"content\\": \\"turn $GAIA2_TURN\\"}]}")
if [[ $code != 200 ]]; then echo "model-agent: the model call failed (HTTP $code)" >&2; exit 2; fi
printf '%s' "$msg" | /opt/gaia2-agent/bin/rules
`;

function dataset(file: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'gaia2-e2e-byo-failures-data-'));
  mkdirSync(join(dir, file.split('/')[0]!), { recursive: true });
  cpSync(join(root, 'examples/scenarios', file), join(dir, file));
  return dir;
}

const readJson = <T>(p: string): T => JSON.parse(readFileSync(p, 'utf8')) as T;

describe.each(eachEngine())('a bring-your-own program failing, with and without its provider failing, on %s (real containers)', (_kind, e: E2eEngine) => {
  let engine: UnitBackend;
  let llm: FakeLlm;
  let refusing = false;
  const image = `localhost/model-agent:${suffix}`;

  beforeAll(async () => {
    engine = await connectE2eEngine(e);
    const ctx = mkdtempSync(join(tmpdir(), 'gaia2-e2e-model-agent-'));
    cpSync(join(root, 'examples/agents/shell-agent/agent'), join(ctx, 'rules'));
    writeFileSync(join(ctx, 'agent'), LAUNCHER, { mode: 0o755 });
    writeFileSync(
      join(ctx, 'Dockerfile'),
      'ARG WORLD_IMAGE\nFROM ${WORLD_IMAGE}\nCOPY agent rules /opt/gaia2-agent/bin/\nRUN chmod 755 /opt/gaia2-agent/bin/agent /opt/gaia2-agent/bin/rules\n' +
        'LABEL gaia2.agent.name=model-agent gaia2.agent.version=0.2.0\nENV GAIA2_AGENT=external\n',
    );
    await engine.images!.build({ contextDir: ctx, tag: image, buildArgs: { WORLD_IMAGE: world } });
    llm = await startFakeLlm({ format: 'anthropic', respond: () => (refusing ? { status: 400, message: 'invalid request: the model rejects this request' } : say('ok')) });
  });
  afterAll(async () => {
    await llm?.close();
    await engine?.close();
  });

  /** run-dataset with the launcher's provider (through the run's gateway) and no judge model. */
  const run = (data: string, out: string, more: string[] = []) =>
    cli(['run-dataset', '--image', image, '--agent', 'external', '--provider', 'anthropic', '--model', 'claude-e2e', '--base-url', llm.url, '--api-key-env', 'BYO_FAILURES_KEY', '-d', data, '--output-dir', out, ...more], {
      ...engineEnv(e),
      BYO_FAILURES_KEY: KEY,
      GAIA2_JUDGE_MODEL: '',
      GAIA2_JUDGE_PROVIDER: '',
    });

  it('fails on its own with its model answering: judged FAIL, counted as a program failure in report.md', async () => {
    refusing = false;
    const out = join(mkdtempSync(join(tmpdir(), 'gaia2-e2e-byo-own-')), 'run');
    const r = await run(dataset('execution/exec_shopping_bottle_order.json'), out);
    const dir = join(out, 'execution', 'exec_shopping_bottle_order');
    const result = readJson<ScenarioResult>(join(dir, 'result.json'));
    // Every run judged: exit 0, no error.
    expect(r.code, r.err).toBe(0);
    expect(result).toMatchObject({ status: 'fail', success: false, agent: { name: 'model-agent', version: '0.2.0' } });
    expect(result.error_kind).toBeUndefined();
    // The daemon recorded the failed turn; its failure text was the judged reply.
    const failures = (result.daemon_status as unknown as DaemonStatus).agent_failures!;
    expect(failures.map((f) => f.turn)).toEqual([1]);
    expect(`${failures[0]!.text} ${failures[0]!.detail}`).toContain('shell-agent has no rule for this message');
    expect(result.agent_response).toBe(failures[0]!.text);
    // The gateway's record of the container: the turn's one model call, answered.
    expect(traffic(dir).filter((l) => l.role === 'agent').map((l) => l.http_status)).toEqual([200]);
    expect(result.agent_failed).toMatchObject({ turns: [1], evidence: 'gateway_record' });
    const report = readJson<Report>(join(out, 'report.json'));
    expect(report.overall).toMatchObject({ judged: 1, failed: 1, errors: 0, program_failed: 1, program_failed_unchecked: 0 });
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain('| **overall (micro)** | 1 | 1 | 1/1 | 0 | 1 | 0 | 1 |');
  });

  it('fails because its provider refused: provider_error, out of the denominator, and --retry runs it again', async () => {
    refusing = true;
    const data = dataset('search/search_email_flight_code.json');
    const out = join(mkdtempSync(join(tmpdir(), 'gaia2-e2e-byo-provider-')), 'run');
    const first = await run(data, out);
    const dir = join(out, 'search', 'search_email_flight_code');
    const refused = readJson<ScenarioResult>(join(dir, 'result.json'));
    expect(traffic(dir).filter((l) => l.role === 'agent').map((l) => l.http_status)).toEqual([400]);
    expect(refused).toMatchObject({ status: 'error', success: null, error_kind: 'provider_error', provider_failure: { provider: 'anthropic', status: 400 } });
    expect(refused.error).toMatch(/^the agent's program failed turn 1 while its provider failed: the model gateway's record shows 1 failed agent call in that turn \(#1 to anthropic \(claude-e2e\): HTTP 400 after 1 attempt\)/);
    // The daemon judged the failure text all the same; the runner set the verdict aside.
    expect((refused.daemon_status as unknown as DaemonStatus).agent_failures?.map((f) => f.turn)).toEqual([1]);
    const report = readJson<Report>(join(out, 'report.json'));
    expect(report.overall).toMatchObject({ judged: 0, errors: 1, errors_by_kind: { provider_error: 1 }, program_failed: 0, success_rate: null });
    expect(first.code).toBe(3); // infrastructure errors remain: rerun with --retry

    refusing = false;
    const again = await run(data, out, ['--retry']);
    expect(again.code, again.err).toBe(0);
    const passed = readJson<ScenarioResult>(join(dir, 'result.json'));
    expect(passed).toMatchObject({ status: 'pass', agent_response: 'Your booking confirmation code is K7QX2M.' });
    expect(passed.agent_failed).toBeUndefined();
    expect(readJson<Report>(join(out, 'report.json')).overall).toMatchObject({ judged: 1, passed: 1, errors: 0, program_failed: 0, success_rate: 1 });
  });
});
