// One pass@1 run dir → a trace.html per scenario run (only those whose inputs changed) and
// the run's index.html.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import { artifactSignature, readJsonObject, scanArtifacts, SCENARIO_MARKERS } from '../model/artifacts.js';
import { writeAssets } from './assets.js';
import { ScenarioInfoCache } from '../model/oracle.js';
import { hrefOf, loadScenario } from '../model/scenario.js';
import type { IndexRow } from '../model/types.js';
import { PAGE_CODE_HASH, renderPage } from '../pages/html.js';
import { asArr, asNum, asStr } from '../trace/json-util.js';
import { discoverScenarios, writeAtomic, writeIfChanged } from './fs-util.js';
import { orderSplits } from '../../report/build.js';
import { loadManifest, saveManifest, VIEWER_FORMAT, type Manifest } from './manifest.js';

export interface Crumb {
  label: string;
  href?: string;
}

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
}

export interface RunBuildResult {
  name: string;
  rows: IndexRow[];
  expected: number | null;
  pages: number;
  /** Absolute paths of the pages whose content changed. */
  written: string[];
  config: Record<string, unknown>;
}

const up = (id: string): string => '../'.repeat(id.split('/').length);

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
  const config = readJsonObject(join(runDir, 'run_config.json')) ?? {};
  const configSplits = asArr(config.splits).map(asStr).filter(Boolean);
  const ctx = { runDir, runName: name, configSplits, scenarios: opts.scenarios ?? new ScenarioInfoCache() };
  // A full build still reads the manifest: its page hashes spare rewriting identical pages.
  const old: Manifest = loadManifest(runDir);
  const touched = opts.incremental && opts.changed ? touchedScenarios(runDir, old, opts.changed) : null;
  const discovered = touched ? null : discoverScenarios(runDir);
  const ids = discovered ? [...discovered.keys()] : Object.keys(old.entries);
  const next: Manifest = { format: VIEWER_FORMAT, entries: {} };
  const written: string[] = [];
  writeAssets(runDir);
  const rows: IndexRow[] = [];

  ids.forEach((id, i) => {
    const dir = join(runDir, ...id.split('/'));
    const prevHref = i > 0 ? up(id) + hrefOf(ids[i - 1]!, 'trace.html') : '';
    const nextHref = i + 1 < ids.length ? up(id) + hrefOf(ids[i + 1]!, 'trace.html') : '';
    const homeHref = `${up(id)}index.html`;
    const pagePath = join(dir, 'trace.html');
    const cachedRow = old.entries[id];
    if (touched && cachedRow && !touched.has(id)) {
      next.entries[id] = cachedRow;
      rows.push(cachedRow.row);
      return;
    }
    const files = scanArtifacts(dir, discovered?.get(id));
    const sig = [artifactSignature(files), prevHref, nextHref, homeHref, configSplits.join(','), PAGE_CODE_HASH].join('\n');
    const cached = old.entries[id];
    if (opts.incremental && cached && cached.sig === sig && files.has('trace.html')) {
      next.entries[id] = cached;
      rows.push(cached.row);
      return;
    }
    try {
      const view = loadScenario(dir, id, ctx, files);
      view.prevHref = prevHref;
      view.nextHref = nextHref;
      view.homeHref = homeHref;
      const html = renderPage(`${id} — ${name} — Gaia2`, view, up(id));
      const hash = createHash('sha1').update(html).digest('base64');
      if (!(files.has('trace.html') && cached?.hash === hash)) {
        writeAtomic(pagePath, html);
        written.push(pagePath);
      }
      next.entries[id] = { sig, row: view.row, hash };
      rows.push(view.row);
    } catch (err) {
      // One unreadable scenario must not take the run's index down with it.
      process.stderr.write(`viewer: ${dir}: ${(err as Error).message}\n`);
    }
  });

  const expectedRaw = asNum(config.num_scenarios);
  const expected = expectedRaw > 0 ? expectedRaw : null;
  const crumbs: Crumb[] = [...(opts.parentCrumbs ?? []), { label: name }];
  const subtitle = [asStr(config.model), asStr(config.provider), asStr(config.agent), asStr(config.image).replace(/^localhost\//, '')].filter(Boolean).join(' • ') || 'Gaia2 run';
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
      })
    : renderPage(`${name} — Gaia2 run`, { page: 'waiting', name, crumbs, expected, model: asStr(config.model), agent: asStr(config.agent), startedAt: asStr(config.started_at) });
  if (writeIfChanged(indexPath, page)) written.push(indexPath);
  saveManifest(runDir, next);
  return { name, rows, expected, pages: ids.length + 1, written, config };
}
