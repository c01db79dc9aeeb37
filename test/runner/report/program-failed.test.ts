// "Program failed" beside the errors: judged runs whose agent program failed a turn on its own
// (result.json `agent_failed`) are counted in the rates and shown per split and overall in
// report.json, the text summary, report.md and the CSV; those without a gateway record to
// weigh against are told apart. Reports and results of older runs read as 0.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildReport, loadRunRecords, programFailedText, renderCsv, renderMarkdown, renderText } from '../../../runner/src/report/index.js';

function writeResult(root: string, rel: string, r: Record<string, unknown>) {
  mkdirSync(join(root, rel), { recursive: true });
  writeFileSync(join(root, rel, 'result.json'), JSON.stringify(r));
}

const failed = (evidence: 'gateway_record' | 'none') => ({ agent_failed: { turns: [1], text: 'Error: the agent failed', evidence, note: '…' } });

describe('program failures in the report', () => {
  it('are counted among judged runs, per split and overall, in every format', () => {
    const d = mkdtempSync(join(tmpdir(), 'rep-program-'));
    writeResult(d, 'search/a', { scenario_id: 'a', status: 'fail', success: false, ...failed('gateway_record') });
    writeResult(d, 'search/b', { scenario_id: 'b', status: 'pass', success: true, ...failed('none') });
    writeResult(d, 'search/c', { scenario_id: 'c', status: 'pass', success: true });
    // A provider_error (the provider failed in the failed turn) is an error, not a program failure.
    writeResult(d, 'time/d', { scenario_id: 'd', status: 'error', success: null, error_kind: 'provider_error' });
    writeResult(d, 'time/e', { scenario_id: 'e', status: 'fail', success: false, ...failed('gateway_record') });
    const r = buildReport(loadRunRecords(d), d);
    expect(r.overall).toMatchObject({ judged: 4, passed: 2, failed: 2, errors: 1, program_failed: 3, program_failed_unchecked: 1, success_rate: 0.5 });
    expect(r.splits.search).toMatchObject({ program_failed: 2, program_failed_unchecked: 1 });
    expect(r.splits.time).toMatchObject({ program_failed: 1, program_failed_unchecked: 0 });
    expect(renderText(r)).toContain('Overall (micro): 2/4 judged runs passed (50.0% ± 28.9% [0.0%, 100.0%]), 2 failed, errors 1 (provider_error: 1), agent program failed in 3 judged runs (1 without a gateway record)');
    const md = renderMarkdown(r);
    expect(md).toContain('| Split | Scenarios | Runs | Sealed | Pass | Fail | Errors | Program failed | Success ± SE [95% CI] |');
    expect(md).toContain('| search | 3 | 3 | — | 2 | 1 | 0 | 2 (1 without a gateway record) |');
    expect(md).toContain('| time | 2 | 2 | — | 0 | 1 | 1 (provider_error: 1) | 1 |');
    const [head, ...rows] = renderCsv(r).trim().split('\n').map((l) => l.split(','));
    const col = (name: string) => head!.indexOf(name);
    const byGroup = new Map(rows.map((x) => [x[0], x]));
    expect([byGroup.get('search')![col('program_failed')], byGroup.get('search')![col('program_failed_unchecked')]]).toEqual(['2', '1']);
    expect(byGroup.get('overall')![col('program_failed')]).toBe('3');
    expect(byGroup.get('macro')![col('program_failed')]).toBe('');
  });

  it('a run without agent_failed, or a report from before the count, reads as none', () => {
    const d = mkdtempSync(join(tmpdir(), 'rep-program-'));
    writeResult(d, 'search/a', { scenario_id: 'a', status: 'fail', success: false });
    const r = buildReport(loadRunRecords(d), d);
    expect(r.overall.program_failed).toBe(0);
    expect(renderText(r)).not.toContain('program failed');
    expect(programFailedText({} as never)).toBe('0');
  });
});
