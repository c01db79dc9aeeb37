// Static trace viewer: per-run index, pass@N dashboard, one trace.html per scenario run.
// Public API for the runner (buildViewer) and for `serve` (buildViewerDetailed).
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildExperiment, type BuildOutcome } from './build/experiment.js';
import { runDirsOf } from './build/fs-util.js';
import { buildRun } from './build/run.js';
import { buildCollection, isCollectionRoot } from './build/collection.js';
import { buildShardedRoot, isShardedRoot } from './build/sharded.js';

export { buildComparison } from './build/compare-page.js';
export { parseTraceJsonl } from '../trace/index.js';
export type { CanonicalCall, ParsedTrace } from '../trace/index.js';

export interface ViewerOptions {
  /** Rebuild only scenario pages whose artifacts changed (default true). */
  incremental?: boolean;
  /** Paths a watcher saw change: lets an incremental build skip stat-ing untouched runs. */
  changed?: string[];
  /** Threads for rendering trace pages when there are many; default: the cores, at most 4. */
  threads?: number;
}

export const isPassAtNRoot = (dir: string): boolean => runDirsOf(dir).length > 0;
export { isCollectionRoot, isShardedRoot };
export { missingTracePages } from './build/sharded.js';

/** Pages written and the absolute paths of those whose content changed. */
export function buildViewerDetailed(outputDir: string, opts: ViewerOptions = {}): BuildOutcome {
  const dir = resolve(outputDir);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new Error(`viewer: ${dir} is not a directory`);
  const build = { incremental: opts.incremental !== false, changed: opts.changed, threads: opts.threads };
  // An aggregated root first: its shard folders are read, never rebuilt (build/sharded.ts).
  if (isShardedRoot(dir)) return buildShardedRoot(dir);
  if (isPassAtNRoot(dir)) return buildExperiment(dir, build);
  if (isCollectionRoot(dir)) return buildCollection(dir, build);
  const r = buildRun(dir, build);
  return { pages: r.pages, written: r.written };
}

/** Works on a pass@1 run dir, a pass@N root (run_1 … run_N), an aggregated root of shards, or a folder of those. */
export async function buildViewer(outputDir: string, opts: ViewerOptions = {}): Promise<{ pages: number; rebuilt: number }> {
  const r = buildViewerDetailed(outputDir, opts);
  return { pages: r.pages, rebuilt: r.written.length };
}
