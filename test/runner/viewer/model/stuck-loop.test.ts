// A run that a stuck loop ended (result.json `stuck_loop`) in the viewer: the index row is marked,
// its info is the reason, and the trace page carries the repeated call for the verdict panel.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildViewer } from '../../../../runner/src/viewer/index.js';
import { stuckLoopReason, type StuckLoopRecord } from '../../../../runner/src/run/stuck-loop.js';
import { writeRun } from '../synthetic.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'viewer-stuck-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function pageData(file: string): any {
  const m = /<script type="application\/json" id="page-data">([\s\S]*?)<\/script>/.exec(readFileSync(file, 'utf8'));
  return JSON.parse(m![1]!);
}

describe('stuck loops in the viewer', () => {
  it('mark the index row, give the reason as its info, and reach the trace page', async () => {
    writeRun(dir, [{ id: 'search/sc_1', split: 'search', status: 'fail' }, { id: 'search/sc_2', split: 'search', status: 'fail' }]);
    const loop: StuckLoopRecord = { tool: 'ShoppingApp__get_cart', args: { page: 1 }, count: 9, min_tool_calls: 5, line: 7 };
    const file = join(dir, 'search', 'sc_1', 'result.json');
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), failure_reasons: [stuckLoopReason(loop)], stuck_loop: loop }));
    await buildViewer(dir);
    const rows = pageData(join(dir, 'index.html')).rows as any[];
    const row = rows.find((r) => r.id === 'search/sc_1');
    expect(row).toMatchObject({ status: 'fail', stuckLoop: true, errorKind: '' });
    expect(row.info).toMatch(/^Stuck loop: the agent called ShoppingApp__get_cart 9 times in a row/);
    expect(rows.find((r) => r.id === 'search/sc_2').stuckLoop).toBeUndefined();
    const trace = pageData(join(dir, 'search', 'sc_1', 'trace.html'));
    expect(trace.result.stuckLoop).toEqual({ tool: 'ShoppingApp__get_cart', args: { page: 1 }, count: 9, minToolCalls: 5, line: 7 });
    expect(pageData(join(dir, 'search', 'sc_2', 'trace.html')).result.stuckLoop).toBeNull();
  });
});
