// An aggregated root (<dir>/shards/<I>-of-<N>/, docs/runner.md "Shards"): one index.html at the
// root whose links go into the shard folders, where each shard's run wrote its own trace pages.
// The shard folders are only read: their pages stay as their runs wrote them (`view` on a
// shard folder rebuilds them). pass@1 shards give one merged run page; pass@N shards (each a
// run_1 … run_N root with its own dashboard) a landing page that lists them.
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { listShardFolders } from '../../plan/shard.js';
import { findRunRecord, RUN_RECORD_FILE } from '../../record/index.js';
import { readRunFacts, runFactsOf } from './run-facts.js';
import { ScenarioInfoCache } from '../model/oracle.js';
import { loadScenario } from '../model/scenario.js';
import type { IndexRow } from '../model/types.js';
import type { LandingPage, RunPage } from '../model/pages.js';
import { renderPage } from '../pages/html.js';
import { asArr, asNum, asStr } from '../../trace/json-util.js';
import { orderSplits } from '../../report/build.js';
import { writeAssets } from './assets.js';
import { discoverScenarios, naturalCompare, runDirsOf, writeIfChanged } from './fs-util.js';
import type { BuildOutcome } from './experiment.js';

export const isShardedRoot = (dir: string): boolean => listShardFolders(dir).length > 0;

/** One run dir's index rows, computed from its artifacts without writing anything; links get `prefix`. */
function rowsOf(runDir: string, prefix: string, scenarios: ScenarioInfoCache): IndexRow[] {
  const ctx = { runDir, runName: basename(runDir), configSplits: readRunFacts(runDir).splits, scenarios };
  const rows: IndexRow[] = [];
  for (const id of discoverScenarios(runDir).keys()) {
    try {
      const row = loadScenario(join(runDir, ...id.split('/')), id, ctx).row;
      rows.push({ ...row, href: `${prefix}/${row.href}` });
    } catch (e) {
      process.stderr.write(`viewer: ${join(runDir, id)}: ${(e as Error).message}\n`); // one unreadable run does not hide the others
    }
  }
  return rows;
}

const tally = (rows: IndexRow[], s: IndexRow['status']): number => rows.filter((r) => r.status === s).length;

export function buildShardedRoot(root: string): BuildOutcome {
  const name = basename(root);
  const shards = listShardFolders(root);
  // The aggregate's record, else (not aggregated yet) the first shard's own.
  const config = runFactsOf(findRunRecord(join(root, RUN_RECORD_FILE)) ?? findRunRecord(join(shards[0]!.dir, RUN_RECORD_FILE)));
  const scenarios = new ScenarioInfoCache();
  const written = writeAssets(root);
  const expected = config.expected;
  const crumbs = [{ label: name }];
  let page: string;
  let pages = 1;
  if (shards.some((s) => runDirsOf(s.dir).length > 0)) {
    const entries: LandingPage['entries'] = shards.map((s) => {
      const runs = runDirsOf(s.dir);
      const rows = runs.flatMap((r) => rowsOf(join(s.dir, r), `${s.rel}/${r}`, scenarios));
      const c = readRunFacts(join(s.dir, runs[0] ?? ''));
      const planned = c.expected ?? 0;
      return {
        name: s.rel,
        kind: `shard, pass@${runs.length}`,
        model: c.model,
        agent: c.agent,
        startedAt: c.startedAt,
        href: `${s.rel}/index.html`,
        pass: tally(rows, 'pass'),
        fail: tally(rows, 'fail'),
        error: tally(rows, 'error'),
        running: tally(rows, 'running'),
        expected: planned > 0 ? planned * runs.length : null,
      };
    });
    page = renderPage(`${name} — Gaia2 shards`, { page: 'landing', name, crumbs, entries } satisfies LandingPage);
  } else {
    const rows = shards.flatMap((s) => rowsOf(s.dir, s.rel, scenarios)).sort((a, b) => naturalCompare(a.id, b.id));
    pages += rows.length;
    const configSplits = config.splits;
    const subtitle = [config.model, config.provider, config.agent, `${shards.length} shards`].filter(Boolean).join(' • ');
    const splits = orderSplits(new Set([...configSplits, ...rows.map((r) => r.split)].filter(Boolean)));
    page = renderPage(`${name} — Gaia2 run (${shards.length} shards)`, { page: 'run', name, subtitle, crumbs, expected, splits: splits.map((s) => ({ name: s, expected: null })), rows, gateway: null } satisfies RunPage);
  }
  const indexPath = join(root, 'index.html');
  if (writeIfChanged(indexPath, page)) written.push(indexPath);
  return { pages, written };
}

/** Scenario runs of an aggregated root whose trace page is missing in its shard (its viewer was not built). */
export function missingTracePages(root: string): string[] {
  const missing: string[] = [];
  for (const s of listShardFolders(root)) {
    const runs = runDirsOf(s.dir);
    for (const dir of runs.length ? runs.map((r) => join(s.dir, r)) : [s.dir])
      for (const id of discoverScenarios(dir).keys()) if (!existsSync(join(dir, ...id.split('/'), 'trace.html'))) missing.push(join(dir, id));
  }
  return missing;
}
