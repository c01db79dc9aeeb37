// Stuck loops in the report: failed runs a stuck loop ended (result.json `stuck_loop`) are
// judged failures — in every denominator, unlike errors — and are counted beside `failed` in
// report.json, the text summary, report.md and the CSV. Older results and reports read as 0.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildReport, failedText, loadRunRecords, renderCsv, renderMarkdown, renderText } from '../../../runner/src/report/index.js';

function writeResult(root: string, rel: string, r: Record<string, unknown>) {
  mkdirSync(join(root, rel), { recursive: true });
  writeFileSync(join(root, rel, 'result.json'), JSON.stringify(r));
}

const loop = { stuck_loop: { tool: 'ShoppingApp__get_cart', args: {}, count: 7, min_tool_calls: 5, line: 9 } };

describe('stuck loops in the report', () => {
  it('count as failures in the rates, and are shown beside them in every format', () => {
    const d = mkdtempSync(join(tmpdir(), 'rep-stuck-'));
    writeResult(d, 'search/a', { scenario_id: 'a', status: 'fail', success: false, failure_reasons: ['Stuck loop: …'], ...loop });
    writeResult(d, 'search/b', { scenario_id: 'b', status: 'pass', success: true });
    writeResult(d, 'search/c', { scenario_id: 'c', status: 'fail', success: false });
    writeResult(d, 'time/d', { scenario_id: 'd', status: 'error', success: null, error_kind: 'activity_timeout' });
    const r = buildReport(loadRunRecords(d), d);
    expect(r.overall).toMatchObject({ judged: 3, passed: 1, failed: 2, errors: 1, stuck_loops: 1 });
    expect(r.overall.success_rate).toBeCloseTo(1 / 3);
    expect(r.splits.search).toMatchObject({ failed: 2, stuck_loops: 1 });
    expect(r.splits.time).toMatchObject({ stuck_loops: 0 });
    expect(renderText(r)).toContain('Overall (micro): 1/3 judged runs passed');
    expect(renderText(r)).toContain(', 2 (1 stuck loop) failed, errors 1 (activity_timeout: 1)');
    expect(renderMarkdown(r)).toContain('| search | 3 | 3 | — | 1 | 2 (1 stuck loop) | 0 |');
    const [head, ...rows] = renderCsv(r).trim().split('\n').map((l) => l.split(','));
    const col = head!.indexOf('stuck_loops');
    const byGroup = new Map(rows.map((x) => [x[0], x]));
    expect([byGroup.get('search')![col], byGroup.get('time')![col], byGroup.get('overall')![col], byGroup.get('macro')![col]]).toEqual(['1', '0', '1', '']);
    expect(rows.every((x) => x.length === head!.length)).toBe(true);
  });

  it('a report from before the count reads as none', () => {
    expect(failedText({ failed: 3 } as never)).toBe('3');
  });
});
