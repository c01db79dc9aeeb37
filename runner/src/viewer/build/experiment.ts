// A pass@N root (run_1 … run_N): each run is built as a run, then the dashboard at the root.
// The root is never flattened into one run (the reference's `view` bug).
import { basename, join } from 'node:path';
import { ScenarioInfoCache } from '../model/oracle.js';
import { hrefOf } from '../model/scenario.js';
import type { IndexRow } from '../model/types.js';
import type { ExperimentPage } from '../model/pages.js';
import { renderPage } from '../pages/html.js';
import { gatewayCountsOf } from '../model/gateway-counts.js';
import { asStr } from '../../trace/json-util.js';
import { NO_RUN_FACTS } from './run-facts.js';
import { comparePageData } from './compare.js';
import { naturalCompare, runDirsOf, writeIfChanged } from './fs-util.js';
import { passAtK } from './pass-at-k.js';
import { buildRun, type BuildOptions, type Crumb, type RunBuildResult } from './run.js';
import { writeAssets } from './assets.js';

export interface BuildOutcome {
  pages: number;
  written: string[];
}

/** What a landing page lists about a run or a pass@N root. */
export interface EntrySummary {
  name: string;
  kind: string;
  model: string;
  agent: string;
  startedAt: string;
  pass: number;
  fail: number;
  error: number;
  running: number;
  expected: number | null;
}

const tally = (rows: IndexRow[], s: IndexRow['status']): number => rows.filter((r) => r.status === s).length;

export function runSummary(r: RunBuildResult, kind = 'run'): EntrySummary {
  return {
    name: r.name,
    kind,
    model: r.facts.model,
    agent: r.facts.agent,
    startedAt: r.facts.startedAt,
    pass: tally(r.rows, 'pass'),
    fail: tally(r.rows, 'fail'),
    error: tally(r.rows, 'error'),
    running: tally(r.rows, 'running'),
    expected: r.expected,
  };
}

/** Crumbs seen from one folder deeper. */
export const deeper = (crumbs: Crumb[]): Crumb[] => crumbs.map((c) => (c.href ? { ...c, href: `../${c.href}` } : c));

export function buildExperiment(root: string, opts: BuildOptions, parentCrumbs: Crumb[] = []): BuildOutcome & { summary: EntrySummary } {
  const name = basename(root);
  const scenarios = new ScenarioInfoCache();
  const runs: RunBuildResult[] = runDirsOf(root).map((r) =>
    buildRun(join(root, r), { ...opts, scenarios, parentCrumbs: [...deeper(parentCrumbs), { label: name, href: '../index.html' }] }),
  );
  writeAssets(root);
  const written = runs.flatMap((r) => r.written);
  let pages = runs.reduce((n, r) => n + r.pages, 0);

  const ids = [...new Set(runs.flatMap((r) => r.rows.map((row) => row.id)))].sort(naturalCompare);
  const byRun = runs.map((r) => new Map(r.rows.map((row) => [row.id, row])));
  const counts: Array<{ n: number; c: number }> = [];
  const matrix = ids.map((id) => {
    let n = 0;
    let c = 0;
    let split = '';
    const cells = byRun.map((m, i) => {
      const row = m.get(id);
      if (!row) return null;
      split ||= row.split;
      if (row.status === 'pass' || row.status === 'fail') n++;
      if (row.status === 'pass') c++;
      return { status: row.status, href: `${runs[i]!.name}/${hrefOf(id, 'trace.html')}` };
    });
    counts.push({ n, c });
    return { id, split, cells };
  });
  const cfg = runs[0]?.facts ?? NO_RUN_FACTS;
  const data: ExperimentPage = {
    page: 'experiment',
    name,
    crumbs: [...parentCrumbs, { label: name }],
    subtitle: [cfg.model, cfg.provider, cfg.agent, `pass@${runs.length}`].filter(Boolean).join(' • '),
    runs: runs.map((r) => ({
      name: r.name,
      href: `${r.name}/index.html`,
      pass: tally(r.rows, 'pass'),
      fail: tally(r.rows, 'fail'),
      error: tally(r.rows, 'error'),
      running: tally(r.rows, 'running'),
      expected: r.expected,
    })),
    passK: passAtK(counts, runs.length),
    splitNames: [...new Set(matrix.map((m) => m.split).filter(Boolean))].sort(naturalCompare),
    scenarios: matrix,
    compareHref: runs.length >= 2 ? 'compare.html' : '',
    gateway: gatewayCountsOf(root),
  };
  const indexPath = join(root, 'index.html');
  if (writeIfChanged(indexPath, renderPage(`${name} — Gaia2 pass@${runs.length}`, data))) written.push(indexPath);
  pages++;
  if (runs.length >= 2) {
    const [a, b] = [runs[0]!, runs[1]!];
    const cmp = comparePageData(
      { name: a.name, dir: join(root, a.name), prefix: `${a.name}/`, rows: a.rows },
      { name: b.name, dir: join(root, b.name), prefix: `${b.name}/`, rows: b.rows },
      [...parentCrumbs, { label: name, href: 'index.html' }, { label: 'compare' }],
    );
    const cmpPath = join(root, 'compare.html');
    if (writeIfChanged(cmpPath, renderPage(`${name} — compare ${a.name} and ${b.name}`, cmp))) written.push(cmpPath);
    pages++;
  }
  const summaries = runs.map((r) => runSummary(r));
  const sum = (k: 'pass' | 'fail' | 'error' | 'running'): number => summaries.reduce((n, x) => n + x[k], 0);
  const expected = summaries.every((x) => x.expected !== null) && summaries.length ? summaries.reduce((n, x) => n + x.expected!, 0) : null;
  const first = summaries[0];
  const summary: EntrySummary = { name, kind: `pass@${runs.length}`, model: first?.model ?? '', agent: first?.agent ?? '', startedAt: first?.startedAt ?? '', pass: sum('pass'), fail: sum('fail'), error: sum('error'), running: sum('running'), expected };
  return { pages, written, summary };
}
