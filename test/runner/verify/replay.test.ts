// The judge's model calls recorded over real HTTP (judge_trace.jsonl, as the daemon writes it)
// and answered again from that record alone: same text, no request to the provider, and a
// request the record lacks is a named miss.
import { readFileSync, mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJudgeLlm } from '../../../agent-image/src/judge/index.js';
import { replayFetch } from '../../../runner/src/verify/index.js';

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
    // Each recorded call answers once: asking again, or asking something else, is a miss.
    await offline.complete('You judge.', 'Did the agent order two bottles?').catch(() => null);
    await offline.complete('You judge.', 'Something never asked').catch(() => null);
    expect(replay.misses).toHaveLength(2);
    expect(replay.misses[1]).toMatch(/^judge call to http:\/\/replay\.invalid\/v1\/chat\/completions not in judge_trace\.jsonl/);
    expect(requests).toBe(1);
  });
});
