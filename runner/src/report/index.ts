// `report`: result.json files under an output dir → report.json + report.md (+ text).
import { join } from 'node:path';
import { redact } from '../secrets/redact.js';
import { writeFileAtomic } from '../fsutil/atomic.js';
import { buildReport, type Report, type ReportOptions } from './build.js';
import { loadRunRecords, type RunRecord } from './collect.js';
import { readReportMeta } from './meta.js';
import { renderMarkdown, renderText } from './render.js';

export { buildReport, groupStats, type Report, type GroupStats, type ReportOptions, type ErrorsPolicy } from './build.js';
export { loadRunRecords, classify, type RunRecord } from './collect.js';
export { renderText, renderMarkdown, rateText, pct, seconds, errorsText, failedText, programFailedText, sealedCell } from './render.js';
export { usd } from './render-usage.js';
export { renderCsv } from './render-csv.js';
export { readReportMeta, type ReportMeta } from './meta.js';
export { agentIdentity, agentLabel, type AgentIdentity } from './agent-identity.js';
export { orderSplits } from './build.js';
export { usageTotals, agentUsageOf, type UsageTotals, type TokenTotals } from './usage.js';
export { clusteredInterval, macroInterval, type RateInterval } from './uncertainty.js';
export { passAtK, passHatK, choose, standardError } from './metrics.js';

/** Writes report.json and report.md; returns the terminal text. */
export async function saveReport(outputDir: string, report: Report): Promise<string> {
  await writeFileAtomic(join(outputDir, 'report.json'), redact(JSON.stringify(report, null, 2)) + '\n');
  await writeFileAtomic(join(outputDir, 'report.md'), redact(renderMarkdown(report)));
  return redact(renderText(report));
}

export type DirReportOptions = { numRuns?: number; warn?: (l: string) => void; records?: readonly RunRecord[] } & ReportOptions;

/**
 * The report of a run directory (pass@1 or a pass@N root) as `report` builds it, without
 * writing it. `records` replaces the directory's own (e.g. a subset of them).
 */
export function dirReport(outputDir: string, o: DirReportOptions = {}): Report {
  const meta = readReportMeta(outputDir);
  // Unless told otherwise, a report keeps the error policy its run was started with.
  const errorsAsFailures = o.errorsAsFailures ?? meta?.errors_as_failures ?? false;
  return buildReport(o.records ?? loadRunRecords(outputDir, o.warn), outputDir, o.numRuns, { meta, ...o, errorsAsFailures });
}

export async function writeReport(outputDir: string, o: DirReportOptions = {}): Promise<{ report: Report; text: string }> {
  const report = dirReport(outputDir, o);
  return { report, text: await saveReport(outputDir, report) };
}
