// trace.jsonl from the gateway's record, on real run directories: written where the agent left
// none, never over the agent's own.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keepAgentTrace } from '../../../runner/src/run/traffic-trace.js';
import { parseTraceJsonl } from '../../../runner/src/trace/index.js';
import { recordedRunCopies, THIRD_PARTY_SCENARIO } from '../../helpers/recorded-runs.js';

const copy = recordedRunCopies();

describe('keepAgentTrace', () => {
  it('fills the empty trace.jsonl a third-party program left with its calls from the record', async () => {
    const dir = join(copy('third-party-runs/codex'), THIRD_PARTY_SCENARIO);
    expect(readFileSync(join(dir, 'trace.jsonl'), 'utf8')).toBe('');
    expect(await keepAgentTrace(dir, readFileSync(join(dir, 'model_traffic.jsonl'), 'utf8'))).toBe(true);
    const calls = parseTraceJsonl(readFileSync(join(dir, 'trace.jsonl'), 'utf8')).calls;
    expect(calls.map((c) => c.seq)).toEqual([1, 2, 3]);
    expect(calls[2]!.response.blocks).toEqual([{ type: 'text', text: 'Ordered two black 750ml bottles with HYDRATE5 applied.' }]);
  });

  it('writes one where the file is missing', async () => {
    const dir = join(copy('third-party-runs/openclaw'), THIRD_PARTY_SCENARIO);
    rmSync(join(dir, 'trace.jsonl'));
    expect(await keepAgentTrace(dir, readFileSync(join(dir, 'model_traffic.jsonl'), 'utf8'))).toBe(true);
    expect(parseTraceJsonl(readFileSync(join(dir, 'trace.jsonl'), 'utf8')).calls).toHaveLength(3);
  });

  it("leaves our own agent's trace as it wrote it", async () => {
    const dir = join(copy('own-agent-run'), 'search', 'search_email_flight_code');
    const own = readFileSync(join(dir, 'trace.jsonl'), 'utf8');
    expect(await keepAgentTrace(dir, readFileSync(join(dir, 'model_traffic.jsonl'), 'utf8'))).toBe(false);
    expect(readFileSync(join(dir, 'trace.jsonl'), 'utf8')).toBe(own);
  });

  it('writes nothing when the record holds no agent call', async () => {
    const dir = join(copy('third-party-runs/codex'), THIRD_PARTY_SCENARIO);
    const judgeOnly = readFileSync(join(import.meta.dirname, '../../fixtures/judge-only-traffic/model_traffic.jsonl'), 'utf8');
    expect(await keepAgentTrace(dir, judgeOnly)).toBe(false);
    expect(readFileSync(join(dir, 'trace.jsonl'), 'utf8')).toBe('');
  });
});
