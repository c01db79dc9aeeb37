// A finished third-party run through the gateway: usage from the record, once, and a trace.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScenarioResult } from '@gaia2/contract/result';
import type { RunGateway } from '../../../runner/src/gateway/index.js';
import { gatewayResult } from '../../../runner/src/orchestrator/gateway-result.js';
import { usageOfRun } from '../../../runner/src/usage/run-usage.js';
import { copyRecordedRun, THIRD_PARTY_SCENARIO } from '../../helpers/recorded-runs.js';

let cleanup = (): void => {};
afterEach(() => cleanup());

// The gateway's side is done (the record is on disk); finish reports no failure.
const finishedGateway = { finish: async () => null } as unknown as RunGateway;

describe('gatewayResult', () => {
  it('writes the trace of a third-party run and counts its usage once, from the record', async () => {
    const copied = copyRecordedRun('third-party-runs/claude-code');
    cleanup = copied.cleanup;
    const dir = join(copied.dir, THIRD_PARTY_SCENARIO);
    const recorded = JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8')) as ScenarioResult;
    const { usage, ...withoutUsage } = recorded;
    const out = await gatewayResult(finishedGateway, THIRD_PARTY_SCENARIO, dir, withoutUsage as ScenarioResult);
    // The record's three calls, as the run recorded them: 306 in, 36 out, source gateway.
    expect(out.usage).toEqual(usage);
    expect(out.usage?.agent).toMatchObject({ source: 'gateway', llm_calls: 3, input_tokens: 306, output_tokens: 36 });
    const trace = readFileSync(join(dir, 'trace.jsonl'), 'utf8');
    expect(trace.trim().split('\n')).toHaveLength(3);
    // The trace states the same usage per call: read on its own it sums to the record's, not twice it.
    const fromTrace = usageOfRun(new Map([['trace.jsonl', Buffer.from(trace)]]), null, {});
    expect(fromTrace?.agent).toMatchObject({ llm_calls: 3, input_tokens: 306, output_tokens: 36 });
  });
});
