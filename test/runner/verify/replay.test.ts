// The judge's model calls recorded over real HTTP (judge_trace.jsonl, as the daemon writes it)
// and answered again from that record alone: same text, no request to the provider, and a
// request the record lacks is a named miss.
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJudgeLlm, judgeEventLog } from '@gaia2/contract/lib/judge';
import { loadScenarioText } from '@gaia2/contract/lib/scenario';
import { writeDigests } from '../../../runner/src/provenance/index.js';
import { eventLogOf } from '../../../runner/src/verify/artifacts.js';
import { replayFetch, verifyRunDir } from '../../../runner/src/verify/index.js';

let server: Server;
let baseUrl: string;
let requests = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      requests++;
      const user = (JSON.parse(body) as { messages: Array<{ role: string; content: string }> }).messages.find((m) => m.role === 'user')!.content;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ id: 'c1', object: 'chat.completion', created: 1, model: 'judge-m', choices: [{ index: 0, message: { role: 'assistant', content: `[[True]] ${user.length}` }, finish_reason: 'stop' }], usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('replayFetch', () => {
  it("answers the judge's recorded calls offline, and names a call the record lacks", async () => {
    const trace = join(mkdtempSync(join(tmpdir(), 'gaia2-replay-')), 'judge_trace.jsonl');
    const live = createJudgeLlm({ provider: 'openai-compat', model: 'judge-m', apiKey: 'k', baseUrl, traceFile: trace });
    const said = await live.complete('You judge.', 'Did the agent order two bottles?');
    expect(said).toBe('[[True]] 32');
    expect(requests).toBe(1);

    const replay = replayFetch(readFileSync(trace, 'utf8'));
    const offline = createJudgeLlm({ provider: 'openai-compat', model: 'judge-m', apiKey: 'replay', baseUrl: 'http://replay.invalid/v1', fetch: replay.fetch, retry: { maxRetries: 0 } });
    expect(await offline.complete('You judge.', 'Did the agent order two bottles?')).toBe(said);
    expect(replay.misses).toEqual([]);
    expect(replay.chatBaseUrl).toBe(baseUrl);
    // Each recorded call answers once: asking again, or asking something else, is a miss.
    await offline.complete('You judge.', 'Did the agent order two bottles?').catch(() => null);
    await offline.complete('You judge.', 'Something never asked').catch(() => null);
    expect(replay.misses).toHaveLength(2);
    expect(replay.misses[1]).toMatch(/^judge call to http:\/\/replay\.invalid\/v1\/chat\/completions not in judge_trace\.jsonl/);
    expect(requests).toBe(1);
  });
});

describe('verify with an LLM judge', () => {
  it("re-judges a run offline from its judge_trace.jsonl, and names the run whose judge call is missing", async () => {
    const root = join(import.meta.dirname, '..', '..', '..');
    const dir = mkdtempSync(join(tmpdir(), 'gaia2-verify-llm-'));
    // A search run: its answer to the user is a soft check, so the judge asks its model.
    const RUN = 'search/search_email_flight_code';
    cpSync(join(root, 'test/fixtures/own-agent-run'), dir, { recursive: true });
    cpSync(join(root, 'examples/scenarios', `${RUN}.json`), join(dir, RUN, 'scenario.json'));
    const judgeOptions = { provider: 'openai-compat', model: 'judge-m', base_url: baseUrl, prompt_version: null, extra_body: null, api_key_env: null, api_key: null };
    const cfg = join(dir, 'run_config.json');
    writeFileSync(cfg, JSON.stringify({ ...JSON.parse(readFileSync(cfg, 'utf8')), judge_options: judgeOptions }));
    // The run's judging as the daemon does it: its calls over real HTTP, traced beside the run.
    const trace = join(dir, RUN, 'judge_trace.jsonl');
    const before = requests;
    const llm = createJudgeLlm({ provider: 'openai-compat', model: 'judge-m', apiKey: 'k', baseUrl, traceFile: trace });
    // The reply worded unlike the oracle's, so the soft check is not skipped as equal.
    const log = join(dir, RUN, 'events.jsonl');
    writeFileSync(log, readFileSync(log, 'utf8').replace(/("fn": "send_message_to_user", "args": \{"content": ")/, '$1In short: '));
    const v = await judgeEventLog(loadScenarioText(readFileSync(join(dir, RUN, 'scenario.json'), 'utf8'), 'scenario.json'), eventLogOf(readFileSync(log, 'utf8')), { llm });
    const res = join(dir, RUN, 'result.json');
    writeFileSync(res, JSON.stringify({ ...JSON.parse(readFileSync(res, 'utf8')), success: v.success, status: v.success ? 'pass' : 'fail' }));
    const calls = requests - before;
    expect(calls).toBeGreaterThan(0);
    await writeDigests(dir);

    expect(await verifyRunDir(dir)).toEqual({ runs: 1, rejudged: 1, issues: [] });
    expect(requests - before).toBe(calls); // nothing went to the provider

    // A trace that lost its calls cannot answer the judge: verify names the run and the call.
    writeFileSync(trace, '');
    await writeDigests(dir);
    const { issues } = await verifyRunDir(dir);
    expect(issues.length).toBeGreaterThan(0);
    expect(issues.every((i) => i.run === RUN)).toBe(true);
    expect(issues[0]!.what).toMatch(/^judge call to .*\/chat\/completions not in judge_trace\.jsonl/);
    expect(requests - before).toBe(calls);
  });
});
