// `report`: result.json files under an output dir → report.json + report.md (+ text).
import { join } from 'node:path';
import { redact } from '../secrets/redact.js';
import { writeFileAtomic } from '../fsutil/atomic.js';
import { buildReport, type Report } from './build.js';
import { loadRunRecords } from './collect.js';
import { renderMarkdown, renderText } from './render.js';
import type { PriceTable } from '../pricing/index.js';

export { buildReport, groupStats, type Report, type GroupStats } from './build.js';
export { loadRunRecords, classify, type RunRecord } from './collect.js';
export { renderText, renderMarkdown } from './render.js';
export { usageTotals, type UsageTotals, type TokenTotals } from './usage.js';
export { passAtK, passHatK, choose, standardError } from './metrics.js';

/** Writes report.json and report.md; returns the terminal text. */
export async function saveReport(outputDir: string, report: Report): Promise<string> {
  await writeFileAtomic(join(outputDir, 'report.json'), redact(JSON.stringify(report, null, 2)) + '\n');
  await writeFileAtomic(join(outputDir, 'report.md'), redact(renderMarkdown(report)));
  return redact(renderText(report));
}

export async function writeReport(outputDir: string, o: { numRuns?: number; warn?: (l: string) => void; prices?: PriceTable } = {}): Promise<{ report: Report; text: string }> {
  const report = buildReport(loadRunRecords(outputDir, o.warn), outputDir, o.numRuns, o.prices);
  return { report, text: await saveReport(outputDir, report) };
}
