// Per agent, how many judged runs' programs failed a turn on their own, beside the errors: in
// the rows' report numbers (leaderboard.json), the Markdown and the page. Runs written by the
// real orchestrator with its model gateway (nothing called it: an empty record, so no provider
// failure, and every failure stands as the program's).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLeaderboard, renderLeaderboardHtml, renderLeaderboardMarkdown, type Leaderboard } from '../../../runner/src/leaderboard/index.js';
import { datasetRun, writeDatasets } from './runs.js';

let root: string;
let lb: Leaderboard;
let dirs: { flaky: string; steady: string };

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'leaderboard-program-'));
  const d = writeDatasets(root);
  dirs = {
    // a fails (its program failed turn 1, judged), b passes although its program failed turn 2, c is an error
    flaky: await datasetRun({
      dataset: d.part, out: join(root, 'flaky'), model: 'm1', provider: 'openai',
      decide: (id) => (id === 'a' ? 'fail' : id === 'c' ? { status: 'error', kind: 'health_timeout' } : 'pass'),
      failedTurns: (id) => (id === 'a' ? [1] : id === 'b' ? [2] : id === 'c' ? [1] : []),
    }),
    steady: await datasetRun({ dataset: d.part, out: join(root, 'steady'), model: 'm2', provider: 'openai', decide: () => 'pass' }),
  };
  lb = buildLeaderboard([dirs.flaky, dirs.steady], { outDir: join(root, 'site') });
}, 60_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('program failures in the leaderboard', () => {
  it('are counted per row among the judged runs, never the errors, and kept in the rates', () => {
    const row = (dir: string) => lb.sections[0]!.rows.find((r) => r.dir === dir)!;
    const o = row(dirs.flaky).report.overall;
    // c's failure list does not count: c ended in an error, so nothing of it was judged.
    expect(o).toMatchObject({ judged: 2, passed: 1, failed: 1, errors: 1, program_failed: 2, program_failed_unchecked: 0, success_rate: 0.5 });
    expect(row(dirs.steady).report.overall).toMatchObject({ program_failed: 0, program_failed_unchecked: 0 });
    expect(row(dirs.flaky).report.splits.search).toMatchObject({ program_failed: 2 });
  });

  it('have a column beside the errors in the Markdown and the page', () => {
    const md = renderLeaderboardMarkdown(lb);
    const lines = md.split('\n');
    const at = lines.findIndex((l) => l.includes('| Errors |'));
    const cells = (l: string) => l.split(/(?<!\\)\|/).map((c) => c.trim());
    const head = cells(lines[at]!);
    const col = head.indexOf('Program failed');
    expect(col).toBe(head.indexOf('Errors') + 1);
    // The table's rows follow its head and separator; the run's name is the fifth cell.
    const rows = new Map(lines.slice(at + 2, at + 4).map((l) => [cells(l)[4], cells(l)]));
    expect(rows.get('flaky')![col]).toBe('2');
    expect(rows.get('steady')![col]).toBe('0');
    expect(md).toContain('Program failed: judged runs whose agent program failed a turn on its own');
    const html = renderLeaderboardHtml(lb);
    expect(html).toContain('<th scope="col" class="num">Errors</th><th scope="col" class="num">Program failed</th>');
    expect(html).toContain('<td class="num">1 (health_timeout: 1)</td><td class="num">2</td>');
  });
});
