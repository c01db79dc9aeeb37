// `compare A B`: a standalone comparison page for two run dirs of the same scenarios.
import { mkdirSync } from 'node:fs';
import { basename, dirname, relative, resolve, sep } from 'node:path';
import { renderPage } from '../pages/html.js';
import { comparePageData } from './compare.js';
import { writeIfChanged } from './fs-util.js';
import { buildRun } from './run.js';
import { writeAssets } from './assets.js';

const toPrefix = (from: string, to: string): string => {
  const rel = relative(from, to).split(sep).join('/');
  return rel ? `${rel}/` : '';
};

/** Builds both runs (incrementally) and writes the comparison page to `outFile`. */
export function buildComparison(runA: string, runB: string, outFile: string): string {
  const a = resolve(runA);
  const b = resolve(runB);
  const out = resolve(outFile);
  const ra = buildRun(a, { incremental: true });
  const rb = buildRun(b, { incremental: true });
  const page = dirname(out);
  const data = comparePageData(
    { name: ra.name === rb.name ? a : ra.name, dir: a, prefix: toPrefix(page, a), rows: ra.rows },
    { name: ra.name === rb.name ? b : rb.name, dir: b, prefix: toPrefix(page, b), rows: rb.rows },
    [{ label: `compare ${basename(a)} ↔ ${basename(b)}` }],
  );
  mkdirSync(page, { recursive: true });
  writeAssets(page);
  writeIfChanged(out, renderPage(`compare ${basename(a)} and ${basename(b)}`, data));
  return out;
}
