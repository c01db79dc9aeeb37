// `report`: result.json files under an output dir → report.json + report.md (+ text).
import { join } from 'node:path';
import { redact } from '../secrets/redact.js';
import { writeFileAtomic } from '../fsutil/atomic.js';
import { buildReport, type Report, type ReportOptions } from './build.js';
import { loadRunRecords } from './collect.js';
import { readReportMeta } from './meta.js';
import { renderMarkdown, renderText } from './render.js';

export { buildReport, groupStats, type Report, type GroupStats, type ReportOptions, type ErrorsPolicy } from './build.js';
export { loadRunRecords, classify, type RunRecord } from './collect.js';
export { renderText, renderMarkdown, rateText, pct } from './render.js';
export { renderCsv } from './render-csv.js';
export { readReportMeta, type ReportMeta } from './meta.js';
export { usageTotals, type UsageTotals, type TokenTotals } from './usage.js';
export { clusteredInterval, macroInterval, type RateInterval } from './uncertainty.js';
export { passAtK, passHatK, choose, standardError } from './metrics.js';

/** Writes report.json and report.md; returns the terminal text. */
export async function saveReport(outputDir: string, report: Report): Promise<string> {
  await writeFileAtomic(join(outputDir, 'report.json'), redact(JSON.stringify(report, null, 2)) + '\n');
  await writeFileAtomic(join(outputDir, 'report.md'), redact(renderMarkdown(report)));
  return redact(renderText(report));
}

export async function writeReport(outputDir: string, o: { numRuns?: number; warn?: (l: string) => void } & ReportOptions = {}): Promise<{ report: Report; text: string }> {
  const meta = readReportMeta(outputDir);
  // Unless told otherwise, a report keeps the error policy its run was started with.
  const errorsAsFailures = o.errorsAsFailures ?? meta?.errors_as_failures ?? false;
  const report = buildReport(loadRunRecords(outputDir, o.warn), outputDir, o.numRuns, { meta, ...o, errorsAsFailures });
  return { report, text: await saveReport(outputDir, report) };
}
