// One pass@1 run dir → a trace.html per scenario run (only those whose inputs changed) and
// the run's index.html.
import { existsSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import { readJsonObject, scanArtifacts, SCENARIO_MARKERS } from '../model/artifacts.js';
import { writeAssets } from './assets.js';
import { ScenarioInfoCache } from '../model/oracle.js';
import { hrefOf } from '../model/scenario.js';
import type { IndexRow } from '../model/types.js';
import type { Crumb, RunPage, WaitingPage } from '../model/pages.js';
import { renderPage } from '../pages/html.js';
import { renderPages } from './page-pool.js';
import { pageSignature, up, type PageJob } from './scenario-page.js';
import { asArr, asNum, asStr } from '../../trace/json-util.js';
import { readRunFacts, type RunFacts } from './run-facts.js';
import { discoverScenarios, writeIfChanged } from './fs-util.js';
import { gatewayCountsOf } from '../model/gateway-counts.js';
import { orderSplits } from '../../report/build.js';
import { loadManifest, saveManifest, VIEWER_FORMAT, type Manifest } from './manifest.js';

export type { Crumb } from '../model/pages.js';

export interface RunBuildOptions {
  incremental: boolean;
  /** Breadcrumbs above the run (the pass@N root when there is one), relative to the run dir. */
  parentCrumbs?: Crumb[];
  scenarios?: ScenarioInfoCache;
  /**
   * Absolute paths known to have changed since the last build (from a file watcher). When
   * given, untouched scenario runs are taken from the manifest without even a stat.
   */
  changed?: string[];
  /** Threads for rendering pages (build/page-pool.ts); default: the cores, at most 4. */
  threads?: number;
}

/** What a build of a pass@N root or of a folder of runs hands down to each run. */
export type BuildOptions = Pick<RunBuildOptions, 'incremental' | 'changed' | 'threads'>;

export interface RunBuildResult {
  name: string;
  rows: IndexRow[];
  expected: number | null;
  pages: number;
  /** Absolute paths of the pages whose content changed. */
  written: string[];
  /** What its run record says (run-facts.ts). */
  facts: RunFacts;
}

function orderedSplits(rows: IndexRow[], configured: string[]): string[] {
  return orderSplits(new Set<string>([...configured, ...rows.map((r) => r.split)].filter(Boolean)));
}

/**
 * Scenario ids touched by the changed paths, or null when the set of scenarios may have
 * changed (a new or removed scenario dir, no manifest): then everything is rescanned.
 */
function touchedScenarios(runDir: string, old: Manifest, changed: string[]): Set<string> | null {
  const known = Object.keys(old.entries);
  if (!known.length) return null;
  const knownSet = new Set(known);
  const touched = new Set<string>();
  for (const p of changed) {
    const rel = relative(runDir, p).split(sep).join('/');
    if (rel.startsWith('..') || rel === '') continue;
    const parts = rel.split('/');
    let hit = '';
    for (let n = parts.length; n >= 1 && !hit; n--) if (knownSet.has(parts.slice(0, n).join('/'))) hit = parts.slice(0, n).join('/');
    if (hit) touched.add(hit);
    else if ((SCENARIO_MARKERS as readonly string[]).includes(parts[parts.length - 1]!)) return null; // a new scenario run
  }
  for (const id of touched) if (!existsSync(join(runDir, ...id.split('/')))) return null; // removed
  return touched;
}

export function buildRun(runDir: string, opts: RunBuildOptions): RunBuildResult {
  const name = basename(runDir);
  const facts = readRunFacts(runDir);
  const configSplits = facts.splits;
  const scenarios = opts.scenarios ?? new ScenarioInfoCache();
  // A full build still reads the manifest: its page hashes spare rewriting identical pages.
  const old: Manifest = loadManifest(runDir);
  const touched = opts.incremental && opts.changed ? touchedScenarios(runDir, old, opts.changed) : null;
  const discovered = touched ? null : discoverScenarios(runDir);
  const ids = discovered ? [...discovered.keys()] : Object.keys(old.entries);
  const next: Manifest = { format: VIEWER_FORMAT, entries: {} };
  const written: string[] = [];
  writeAssets(runDir);
  // Pass 1: which pages are stale. An incremental build stats each artifact here; a full
  // build leaves even that to the page jobs, which may run on other threads.
  const ctx = { runDir, runName: name, configSplits };
  const reused = new Map<string, Manifest['entries'][string]>();
  const jobs: PageJob[] = [];
  ids.forEach((id, i) => {
    const cached = old.entries[id];
    if (touched && cached && !touched.has(id)) {
      reused.set(id, cached);
      return;
    }
    const job: PageJob = {
      id,
      dir: join(runDir, ...id.split('/')),
      prevHref: i > 0 ? up(id) + hrefOf(ids[i - 1]!, 'trace.html') : '',
      nextHref: i + 1 < ids.length ? up(id) + hrefOf(ids[i + 1]!, 'trace.html') : '',
      homeHref: `${up(id)}index.html`,
      names: discovered?.get(id),
      cachedHash: cached?.hash,
    };
    if (opts.incremental) {
      job.files = scanArtifacts(job.dir, job.names);
      if (cached && cached.sig === pageSignature(job.files, job, ctx) && job.files.has('trace.html')) {
        reused.set(id, cached);
        return;
      }
    }
    jobs.push(job);
  });

  // Pass 2: render them (on several threads when there are many), then collect in id order.
  const outcomes = renderPages(jobs, ctx, scenarios, { threads: opts.threads });
  const fresh = new Map(jobs.map((job, k) => [job.id, k]));
  const rows: IndexRow[] = [];
  for (const id of ids) {
    const cached = reused.get(id);
    const k = fresh.get(id);
    if (cached) {
      next.entries[id] = cached;
      rows.push(cached.row);
    } else if (k !== undefined) {
      const outcome = outcomes[k]!;
      if ('error' in outcome) {
        process.stderr.write(`${outcome.error}\n`);
        continue;
      }
      next.entries[id] = { sig: outcome.sig, row: outcome.row, hash: outcome.hash };
      rows.push(outcome.row);
      if (outcome.written) written.push(join(jobs[k]!.dir, 'trace.html'));
    }
  }

  const expected = facts.expected;
  const crumbs: Crumb[] = [...(opts.parentCrumbs ?? []), { label: name }];
  const subtitle =
    [
      facts.model,
      facts.provider,
      facts.agent,
      facts.image.replace(/^localhost\//, ''),
      facts.language ? `language ${facts.language}` : '',
      facts.judgePrompts ? `judge prompts ${facts.judgePrompts}` : '',
    ]
      .filter(Boolean)
      .join(' • ') || 'Gaia2 run';
  const indexPath = join(runDir, 'index.html');
  const page = ids.length
    ? renderPage(`${name} — Gaia2 run`, {
        page: 'run',
        name,
        subtitle,
        crumbs,
        expected,
        splits: orderedSplits(rows, configSplits).map((s) => ({ name: s, expected: null })),
        rows,
        gateway: gatewayCountsOf(runDir),
      } satisfies RunPage)
    : renderPage(`${name} — Gaia2 run`, { page: 'waiting', name, crumbs, expected, model: facts.model, agent: facts.agent, startedAt: facts.startedAt } satisfies WaitingPage);
  if (writeIfChanged(indexPath, page)) written.push(indexPath);
  saveManifest(runDir, next);
  return { name, rows, expected, pages: ids.length + 1, written, facts };
}
