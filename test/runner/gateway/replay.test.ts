// A replay source keeps a container's record in memory only while it is needed: answers come
// from the record read once, and forget() lets it go (read again if asked for later).
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { replayOf } from '../../../runner/src/gateway/replay.js';
import type { Grant } from '../../../runner/src/gateway/tokens.js';

const grant: Grant = { runId: 'r', container: 'c1', role: 'agent', upstream: 'anthropic', dir: null, scenario: 's', runIndex: null, recordKey: 'exec/s1' };
const line = (answer: string) => JSON.stringify({ seq: 1, role: 'agent', request: { model: 'm', messages: [{ role: 'user', content: 'hi' }] }, http_status: 200, raw_response: answer, stream: false });
const req = { method: 'POST', url: 'u', requestText: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }) };

describe('replay source', () => {
  it('reads a record once while its container runs, and again only after forget()', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-replay-'));
    mkdirSync(join(dir, 'exec/s1'), { recursive: true });
    const file = join(dir, 'exec/s1/model_traffic.jsonl');
    writeFileSync(file, `${line('first')}\n`);
    let loads = 0;
    const source = replayOf((k) => (loads++, readFileSync(join(dir, k, 'model_traffic.jsonl'), 'utf8')), (k) => k);
    expect(source.answer(grant, 1, req)).toMatchObject({ status: 200, body: 'first' });
    writeFileSync(file, `${line('second')}\n`);
    expect(source.answer(grant, 1, req)).toMatchObject({ body: 'first' }); // still the record in memory
    expect(loads).toBe(1);
    source.forget('exec/s1');
    expect(source.answer(grant, 1, req)).toMatchObject({ body: 'second' });
    expect(loads).toBe(2);
  });
});
