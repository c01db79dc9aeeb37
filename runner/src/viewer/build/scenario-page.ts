// One scenario run's trace.html: read its artifacts, render, write if the content changed.
// The unit of work a build hands out (build/page-pool.ts), inline or to a worker thread, so
// jobs and outcomes are plain data that survive a structured clone.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { artifactSignature, scanArtifacts, type ArtifactStat } from '../model/artifacts.js';
import type { ScenarioInfoCache } from '../model/oracle.js';
import { loadScenario } from '../model/scenario.js';
import type { IndexRow } from '../model/types.js';
import { renderPageBytes } from '../pages/html.js';
import { PAGE_CODE_HASH } from '../pages/page-assets.js';
import { writeAtomic } from './fs-util.js';

/** What every page of one run shares. */
export interface PageContext {
  runDir: string;
  runName: string;
  configSplits: string[];
}

export interface PageJob {
  id: string;
  dir: string;
  prevHref: string;
  nextHref: string;
  homeHref: string;
  /** The dir's artifact scan (model/artifacts.ts), when the build already made it. */
  files?: Map<string, ArtifactStat>;
  /** Otherwise the names of the files in the dir, if known: the scan then needs no readdir. */
  names?: string[];
  /** The manifest's hash of the page last written: an identical page is not rewritten. */
  cachedHash?: string;
}

export type PageOutcome = { row: IndexRow; sig: string; hash: string; written: boolean } | { error: string };

/** The relative path from a scenario dir back up to its run dir. */
export const up = (id: string): string => '../'.repeat(id.split('/').length);

/** Everything the page depends on: its artifacts' size and mtime, its links, the page code. */
export function pageSignature(files: Map<string, ArtifactStat>, job: PageJob, ctx: PageContext): string {
  return [artifactSignature(files), job.prevHref, job.nextHref, job.homeHref, ctx.configSplits.join(','), PAGE_CODE_HASH].join('\n');
}

export function buildScenarioPage(job: PageJob, ctx: PageContext, scenarios: ScenarioInfoCache): PageOutcome {
  try {
    // Scanned before reading: a file that changes meanwhile gets a new signature next time.
    const files = job.files ?? scanArtifacts(job.dir, job.names);
    const view = loadScenario(job.dir, job.id, { ...ctx, scenarios }, files);
    view.prevHref = job.prevHref;
    view.nextHref = job.nextHref;
    view.homeHref = job.homeHref;
    const html = renderPageBytes(`${job.id} — ${ctx.runName} — Gaia2`, view, up(job.id));
    const hash = createHash('sha1').update(html).digest('base64');
    const written = !(files.has('trace.html') && hash === job.cachedHash);
    if (written) writeAtomic(join(job.dir, 'trace.html'), html);
    return { row: view.row, sig: pageSignature(files, job, ctx), hash, written };
  } catch (err) {
    // One unreadable scenario must not take the run's index down with it.
    return { error: `viewer: ${job.dir}: ${(err as Error).message}` };
  }
}
