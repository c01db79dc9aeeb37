// Whether the runs' network was sealed (result.json `network_sealed`), in report.json (overall and
// per split), the text and markdown reports (the Sealed column), the CSV, and the leaderboard
// (a Sealed column per row, a note naming rows not wholly sealed); results from before sealing
// existed count in neither.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { buildReport, loadRunRecords, renderCsv, renderMarkdown, renderText } from '../../../runner/src/report/index.js';
import { buildLeaderboard, renderLeaderboardMarkdown } from '../../../runner/src/leaderboard/index.js';

function runDir(results: Array<Record<string, unknown>>, split = 'search'): string {
  const d = mkdtempSync(join(tmpdir(), 'rep-sealed-'));
  results.forEach((r, i) => {
    mkdirSync(join(d, split, `s${i}`), { recursive: true });
    writeFileSync(join(d, split, `s${i}`, 'result.json'), JSON.stringify({ scenario_id: `s${i}`, status: 'pass', success: true, ...r }));
  });
  return d;
}
const reportOf = (results: Array<Record<string, unknown>>) => {
  const d = runDir(results);
  return buildReport(loadRunRecords(d), d);
};

it('counts sealed and unsealed runs and says so; says nothing for results without the field', () => {
  const mixed = reportOf([{ network_sealed: true }, { network_sealed: false }, {}]);
  expect(mixed.network).toEqual({ sealed: 1, unsealed: 1 });
  expect(mixed.splits.search!.network).toEqual({ sealed: 1, unsealed: 1 });
  expect(renderText(mixed)).toContain('1 of 2 runs ran with an unsealed network');
  expect(renderMarkdown(mixed)).toContain('1 of 2 runs ran with an unsealed network');
  const all = reportOf([{ network_sealed: true }, { network_sealed: true }]);
  expect(renderText(all)).toContain('Every run ran with a sealed network');
  const old = reportOf([{}]);
  expect(old.network).toEqual({ sealed: 0, unsealed: 0 });
  expect(renderText(old)).not.toMatch(/sealed network/);
});

it("report.md's Sealed column: sealed runs of all runs per split and overall, — when no run says; the CSV's counts", () => {
  const md = renderMarkdown(reportOf([{ network_sealed: true }, { network_sealed: false }, {}]));
  expect(md).toContain('| Split | Scenarios | Runs | Sealed | Pass |');
  expect(md).toContain('| search | 3 | 3 | 1/3 | 3 |');
  expect(md).toContain('| **overall (micro)** | 3 | 3 | 1/3 |');
  expect(renderMarkdown(reportOf([{ network_sealed: true }, { network_sealed: true }]))).toContain('| search | 2 | 2 | 2/2 |');
  expect(renderMarkdown(reportOf([{}]))).toContain('| search | 1 | 1 | — |');
  const [head, ...rows] = renderCsv(reportOf([{ network_sealed: true }, { network_sealed: false }])).trim().split('\n').map((l) => l.split(','));
  const overall = rows.find((x) => x[0] === 'overall')!;
  expect([overall[head!.indexOf('network_sealed')], overall[head!.indexOf('network_unsealed')]]).toEqual(['1', '1']);
});

it('the leaderboard shows each row\'s sealed runs and names the rows not wholly sealed', () => {
  const sealed = runDir([{ network_sealed: true }, { network_sealed: true }]);
  const open = runDir([{ network_sealed: false }, { network_sealed: true, status: 'fail', success: false }]);
  const old = runDir([{}, {}]);
  const lb = buildLeaderboard([sealed, open, old], { outDir: mkdtempSync(join(tmpdir(), 'lb-sealed-')) });
  const md = renderLeaderboardMarkdown(lb);
  const costRows = md.split('\n').filter((l) => /^\| \d+ \|/.test(l));
  expect(md).toMatch(/\| pass@1 \| pass\^1 \| Sealed \| Errors \|/);
  const cells = (dir: string) => costRows.filter((l) => l.includes(dir.split('/').pop()!)).at(-1)!;
  expect(cells(sealed)).toMatch(/\| 2\/2 \| 0 \|/);
  expect(cells(open)).toMatch(/\| 1\/2 \| 0 \|/);
  expect(cells(old)).toMatch(/\| — \| 0 \|/);
  const note = md.split('\n').find((l) => l.startsWith('Not every run of'));
  expect(note).toContain(open.split('/').pop()!);
  expect(note).not.toContain(sealed.split('/').pop()!);
  expect(note).not.toContain(old.split('/').pop()!);
});
