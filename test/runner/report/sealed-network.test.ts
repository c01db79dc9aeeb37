// Whether the runs' network was sealed (result.json `network_sealed`), in report.json and the
// text and markdown reports; results from before sealing existed count in neither.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { buildReport, loadRunRecords, renderMarkdown, renderText } from '../../../runner/src/report/index.js';

function reportOf(results: Array<Record<string, unknown>>) {
  const d = mkdtempSync(join(tmpdir(), 'rep-sealed-'));
  results.forEach((r, i) => {
    mkdirSync(join(d, 'search', `s${i}`), { recursive: true });
    writeFileSync(join(d, 'search', `s${i}`, 'result.json'), JSON.stringify({ scenario_id: `s${i}`, status: 'pass', success: true, ...r }));
  });
  return buildReport(loadRunRecords(d), d);
}

it('counts sealed and unsealed runs and says so; says nothing for results without the field', () => {
  const mixed = reportOf([{ network_sealed: true }, { network_sealed: false }, {}]);
  expect(mixed.network).toEqual({ sealed: 1, unsealed: 1 });
  expect(renderText(mixed)).toContain('1 of 2 runs ran with an unsealed network');
  expect(renderMarkdown(mixed)).toContain('1 of 2 runs ran with an unsealed network');
  const all = reportOf([{ network_sealed: true }, { network_sealed: true }]);
  expect(renderText(all)).toContain('Every run ran with a sealed network');
  const old = reportOf([{}]);
  expect(old.network).toEqual({ sealed: 0, unsealed: 0 });
  expect(renderText(old)).not.toMatch(/sealed network/);
});
