// A folder of runs and pass@N roots (e.g. outputs/): each is built on its own and a landing
// page lists them. Nothing below is flattened into one run.
import type { LandingPage } from '../model/pages.js';
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { renderPage } from '../pages/html.js';
import { writeAssets } from './assets.js';
import { buildExperiment, runSummary, type BuildOutcome, type EntrySummary } from './experiment.js';
import { runDirsOf, subdirs, writeIfChanged } from './fs-util.js';
import { buildRun, type BuildOptions } from './run.js';

const isRunDir = (dir: string): boolean => existsSync(join(dir, 'run_config.json'));

/** Not itself a run, but holds runs or pass@N roots as direct children. */
export function isCollectionRoot(dir: string): boolean {
  if (isRunDir(dir) || runDirsOf(dir).length) return false;
  return subdirs(dir).some((c) => isRunDir(join(dir, c)) || runDirsOf(join(dir, c)).length > 0);
}

export function buildCollection(root: string, opts: BuildOptions): BuildOutcome {
  const name = basename(root);
  const crumbs = [{ label: name, href: '../index.html' }];
  const written: string[] = [];
  let pages = 1;
  const entries: Array<EntrySummary & { href: string }> = [];
  for (const child of subdirs(root)) {
    const dir = join(root, child);
    if (runDirsOf(dir).length) {
      const r = buildExperiment(dir, opts, crumbs);
      written.push(...r.written);
      pages += r.pages;
      entries.push({ ...r.summary, href: `${encodeURIComponent(child)}/index.html` });
    } else if (isRunDir(dir)) {
      const r = buildRun(dir, { ...opts, parentCrumbs: crumbs });
      written.push(...r.written);
      pages += r.pages;
      entries.push({ ...runSummary(r), href: `${encodeURIComponent(child)}/index.html` });
    }
  }
  writeAssets(root);
  const indexPath = join(root, 'index.html');
  if (writeIfChanged(indexPath, renderPage(`${name} — Gaia2 runs`, { page: 'landing', name, crumbs: [{ label: name }], entries } satisfies LandingPage))) written.push(indexPath);
  return { pages, written };
}
