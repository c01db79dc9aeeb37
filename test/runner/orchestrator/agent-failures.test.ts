// Errors counted by evidence through the orchestrator and its real model gateway: each scenario
// run stands in for a container whose agent program calls the provider double through the
// gateway (with its container's token) and then fails its turn on its own. Where the double
// refused that call the run is a provider_error (out of the denominator, rerun by --retry);
// where it answered, the run stands as judged with `agent_failed`; without the gateway (direct
// mode) it stands with nothing checked. The report counts the program failures.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DaemonStatus } from '@gaia2/contract/status';
import type { ScenarioResult } from '@gaia2/contract/result';
import { formatEventLine } from '@gaia2/contract/pyjson';
import { planFromDatasetFlags } from '../../../runner/src/config/cli-flags.js';
import { resolveDataset } from '../../../runner/src/dataset/index.js';
import { executePlan } from '../../../runner/src/orchestrator/index.js';
import { renderMarkdown } from '../../../runner/src/report/index.js';
import type { ScenarioRunOptions } from '../../../runner/src/run/index.js';
import { buildResult } from '../../../runner/src/run/result.js';
import { say, startFakeLlm, type FakeLlm } from '../../helpers/fake-llm/index.js';
import { writeScenario } from '../dataset/make-scenario.js';
import { fakeEngine, recordingProgress } from './fakes.js';

let llm: FakeLlm;
/** Scenario ids whose agent call the provider double refuses (HTTP 400). */
const refuse = new Set<string>();

beforeAll(async () => {
  llm = await startFakeLlm({
    format: 'anthropic',
    respond: (req) => (refuse.has(String(req.body?.messages?.[0]?.content)) ? { status: 400, message: 'invalid request' } : say('fine')),
  });
});
afterAll(() => llm.close());

const eventLine = (fn: 'send_message_to_agent' | 'send_message_to_user', wall: number) =>
  formatEventLine({ t: wall, app: 'AgentUserInterface', fn, args: { content: fn }, w: fn === 'send_message_to_user', ret: null, sim_t: '2025-10-09 09:00:00', wall_t: wall }) + '\n';

/**
 * A scenario run as a container of a third-party agent would leave it: the task delivered, one
 * model call through BASE_URL with its token, the program's failure as the judged reply
 * (a wrong answer here), and the daemon's status listing the failed turn.
 */
async function programThatFails(o: ScenarioRunOptions): Promise<ScenarioResult> {
  const id = basename(o.scenarioFile, '.json');
  const delivered = Date.now() / 1000;
  if (o.env.BASE_URL) {
    await fetch(`${o.env.BASE_URL}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': o.env.API_KEY!, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'claude-x', max_tokens: 64, messages: [{ role: 'user', content: id }] }),
    }).then((r) => r.text());
  }
  const failedAt = Date.now() / 1000;
  const status = {
    status: 'stopped', turn: 1, nb_turns: 1, num_events: 2,
    judgment: { success: false, failure_reason: 'Tool count mismatch' },
    agent_failures: [{ turn: 1, text: 'Error: the agent failed (exit code 1)', detail: 'exit code 1', sim_time: '2025-10-09 09:00:03', wall_t: failedAt }],
  } as DaemonStatus;
  const r = { ...buildResult({ scenarioId: id, scenarioFile: o.scenarioFile, status, numAgentEvents: 2, agentResponse: 'Error: the agent failed (exit code 1)' }), ...(o.runIndex ? { run_index: o.runIndex } : {}), ...(o.split ? { split: o.split } : {}) };
  mkdirSync(o.outputDir!, { recursive: true });
  writeFileSync(join(o.outputDir!, 'events.jsonl'), eventLine('send_message_to_agent', delivered) + eventLine('send_message_to_user', failedAt));
  writeFileSync(join(o.outputDir!, 'result.json'), JSON.stringify(r));
  return r;
}

function setup(flags: Record<string, unknown>) {
  const dir = mkdtempSync(join(tmpdir(), 'agent-failures-'));
  writeScenario(join(dir, 'data/search/refused.json'), 'refused');
  writeScenario(join(dir, 'data/search/own.json'), 'own');
  const env = { ANTHROPIC_API_KEY: 'sk-test' };
  const plan = (retry: boolean) =>
    planFromDatasetFlags(
      {
        dataset: join(dir, 'data'), image: 'localhost/gaia2-agent:latest', runtime: 'podman', adapterPort: '8090', timeout: '600', healthTimeout: '120', activityTimeout: '600',
        thinking: 'low', logLevel: 'INFO', notificationMode: 'message', network: 'host', concurrency: '1', passAt: '1', revision: 'main',
        provider: 'anthropic', model: 'claude-x', baseUrl: llm.url, outputDir: join(dir, 'out'), ...(retry ? { retry: true } : {}), ...flags,
      },
      env,
    );
  const run = async (retry = false) => {
    const p = plan(retry);
    const calls: string[] = [];
    const outcome = await executePlan(p, await resolveDataset(p.target, { env }), {
      engine: fakeEngine(),
      runScenario: (o) => (calls.push(basename(o.scenarioFile, '.json')), programThatFails(o)),
      progress: recordingProgress(),
      hostEnv: env,
    });
    return { outcome, calls };
  };
  const result = (id: string) => JSON.parse(readFileSync(join(dir, 'out/search', id, 'result.json'), 'utf8')) as ScenarioResult;
  return { dir, run, result };
}

describe('a failed turn weighed against the gateway’s record, through the orchestrator', () => {
  it('refused in that turn → provider_error, out of the denominator, rerun by --retry; clean → judged and counted as a program failure', async () => {
    refuse.add('refused');
    const s = setup({});
    const first = await s.run();
    expect(first.calls.sort()).toEqual(['own', 'refused']);
    const refused = s.result('refused');
    expect(refused).toMatchObject({ status: 'error', success: null, error_kind: 'provider_error', provider_failure: { provider: 'anthropic', status: 400 } });
    expect(refused.error).toMatch(/failed turn 1 while its provider failed: .*#1 to anthropic \(claude-x\): HTTP 400 after 1 attempt/);
    const own = s.result('own');
    expect(own).toMatchObject({ status: 'fail', success: false, agent_failed: { turns: [1], evidence: 'gateway_record' } });
    expect(first.outcome.report.overall).toMatchObject({ judged: 1, failed: 1, errors: 1, errors_by_kind: { provider_error: 1 }, program_failed: 1, program_failed_unchecked: 0, success_rate: 0 });
    expect(renderMarkdown(first.outcome.report)).toContain('| **overall (micro)** | 2 | 2 | — | 0 | 1 | 1 (provider_error: 1) | 1 | 0.0% |');

    // The provider is healthy again: --retry reruns the provider_error only; the judged run stays.
    refuse.clear();
    const again = await s.run(true);
    expect(again.calls).toEqual(['refused']);
    expect(s.result('refused')).toMatchObject({ status: 'fail', agent_failed: { turns: [1], evidence: 'gateway_record' } });
    expect(s.result('own').started_at).toBe(own.started_at);
    expect(again.outcome.report.overall).toMatchObject({ judged: 2, errors: 0, program_failed: 2 });
  });

  it('direct mode (--no-gateway): no record to weigh against, the run stands as judged and says so', async () => {
    refuse.add('refused');
    const s = setup({ gateway: false });
    const { outcome } = await s.run();
    for (const id of ['refused', 'own']) {
      const r = s.result(id);
      expect(r).toMatchObject({ status: 'fail', agent_failed: { evidence: 'none' } });
      expect(r.agent_failed!.note).toMatch(/called its provider directly/);
    }
    expect(outcome.report.overall).toMatchObject({ judged: 2, errors: 0, program_failed: 2, program_failed_unchecked: 2 });
    expect(outcome.reportText).toContain('agent program failed in 2 judged runs (2 without a gateway record)');
    refuse.clear();
  });
});
