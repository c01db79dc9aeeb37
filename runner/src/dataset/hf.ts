// Hugging Face datasets (docs/config.md, "Hugging Face datasets"): parquet files are
// discovered through the Hub API, rows read with hyparquet, each split written to a temp dir
// and renamed into place, with a manifest (revision, files, row count). A split that has a
// complete directory is reused without network access.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { registerSecret } from '../secrets/redact.js';
import { DatasetError } from './errors.js';
import { safeId, validScenario } from './read-scenario.js';

export interface HfSource {
  repo: string;
  revision: string;
  splits: string[];
  /** A per-language dataset (Omnilingual-Gaia2): configs `<language>_<split>`, cached per language. */
  language?: string | null;
  /** Download again even when a cached copy exists (--refresh-dataset). */
  refresh?: boolean;
  env: Record<string, string | undefined>;
  log?: (line: string) => void;
}

interface SplitManifest {
  repo: string;
  revision: string;
  /** The commit the revision pointed to when the split was downloaded (null: not resolved). */
  sha?: string | null;
  split: string;
  /** The Hub directory (config) the split came from: the split, or `<language>_<split>`. */
  config?: string;
  files: Array<{ path: string; oid?: string | undefined; size: number }>;
  rows: number;
  written_at: string;
}

export function hfCacheRoot(env: Record<string, string | undefined>): string {
  return env.GAIA2_HF_CACHE?.trim() || join(homedir(), '.cache', 'gaia2', 'hf_datasets');
}

/** `<cache>/<org>_<name>` (the reference's layout), `<org>_<name>_<language>` for one language. */
export function hfDatasetDir(repo: string, env: Record<string, string | undefined>, language?: string | null): string {
  return join(hfCacheRoot(env), `${repo.replace(/\//g, '_')}${language ? `_${language}` : ''}`);
}

/** The Hub config (and directory) holding a split: `<language>_<split>` for a per-language dataset. */
export const hfConfigName = (split: string, language?: string | null): string => (language ? `${language}_${split}` : split);

const manifestPath = (dir: string, split: string) => join(dir, '.gaia2-cache', `${split}.json`);

function cached(dir: string, split: string, revision: string): boolean {
  const splitDir = join(dir, split);
  if (!existsSync(splitDir) || readdirSync(splitDir).length === 0) return false;
  const mf = manifestPath(dir, split);
  if (!existsSync(mf)) return true; // a cache written by the reference runner: same layout
  try {
    const m = JSON.parse(readFileSync(mf, 'utf8')) as SplitManifest;
    return revision === 'main' || m.revision === revision;
  } catch {
    return false;
  }
}

export interface HfSplits {
  dir: string;
  /** Commit sha per split, as recorded when each was downloaded (null: unknown). */
  shas: Record<string, string | null>;
}

function recordedSha(dir: string, split: string): string | null {
  try {
    const m = JSON.parse(readFileSync(manifestPath(dir, split), 'utf8')) as SplitManifest;
    return typeof m.sha === 'string' ? m.sha : null;
  } catch {
    return null;
  }
}

/** Makes every requested split available under the cache dir; returns it and the commits. */
export async function ensureHfSplits(src: HfSource): Promise<HfSplits> {
  const dir = hfDatasetDir(src.repo, src.env, src.language);
  const log = src.log ?? (() => {});
  const missing = src.splits.filter((s) => src.refresh || !cached(dir, s, src.revision));
  const done = (): HfSplits => ({ dir, shas: Object.fromEntries(src.splits.map((s) => [s, recordedSha(dir, s)])) });
  if (missing.length === 0) {
    log(`Using cached dataset at ${dir} (--refresh-dataset downloads it again)`);
    return done();
  }
  mkdirSync(join(dir, '.gaia2-cache'), { recursive: true });
  const hub = {
    repo: { type: 'dataset' as const, name: src.repo },
    revision: src.revision,
    hubUrl: src.env.HF_ENDPOINT?.trim() || undefined,
    accessToken: src.env.HF_TOKEN?.trim() || undefined,
  };
  registerSecret(hub.accessToken);
  const sha = await resolveSha(hub, log);
  for (const split of src.splits) {
    if (!missing.includes(split)) {
      log(`  ${split}: cached`);
      continue;
    }
    log(`  ${split}: downloading ...`);
    const n = await downloadSplit(dir, split, { ...hub, sha, config: hfConfigName(split, src.language), language: src.language ?? null });
    log(`  ${split}: ${n} scenarios`);
  }
  return done();
}

/** The commit a branch or tag points to now; null (logged) when the Hub does not say. */
async function resolveSha(hub: Hub, log: (l: string) => void): Promise<string | null> {
  const { datasetInfo } = await hubClient();
  try {
    const info = await datasetInfo({ name: hub.repo.name, revision: hub.revision, hubUrl: hub.hubUrl, accessToken: hub.accessToken, additionalFields: ['sha'] });
    return typeof info.sha === 'string' ? info.sha : null;
  } catch (e) {
    log(`  could not resolve ${hub.repo.name}@${hub.revision} to a commit (${(e as Error).message}); the run records the revision name only`);
    return null;
  }
}

type Hub = { repo: { type: 'dataset'; name: string }; revision: string; hubUrl: string | undefined; accessToken: string | undefined };

// The Hub client and the parquet reader are loaded only when a download happens: most runs
// never need them, and they are a large part of the CLI's memory.
const hubClient = () => import('@huggingface/hub');

async function listParquet(split: string, hub: Hub & { language: string | null }): Promise<Array<{ path: string; oid?: string | undefined; size: number }>> {
  const where = hub.language ? `${hub.repo.name}@${hub.revision} config "${split}" (language ${hub.language})` : `${hub.repo.name}@${hub.revision} split "${split}"`;
  const files: Array<{ path: string; oid?: string | undefined; size: number }> = [];
  const { listFiles } = await hubClient();
  try {
    for await (const f of listFiles({ ...hub, path: split, recursive: true })) {
      if (f.type === 'file' && f.path.endsWith('.parquet')) files.push({ path: f.path, oid: f.oid, size: f.size });
    }
  } catch (e) {
    const status = (e as { statusCode?: number }).statusCode;
    if (status === 404 && hub.language) throw new DatasetError(`Hugging Face dataset ${where}: not found (check [target].language / --language${await configList(hub)})`);
    if (status === 404) throw new DatasetError(`Hugging Face dataset ${where}: not found (check the repo id, the revision and the split name)`);
    if (status === 401 || status === 403) throw new DatasetError(`Hugging Face dataset ${where}: access denied (set HF_TOKEN to a token that can read it)`);
    throw new DatasetError(`Hugging Face dataset ${where}: cannot list files (${(e as Error).message})`);
  }
  // The scenarios live in the HF split named "test"; other partitions are ignored when it exists.
  const test = files.filter((f) => /(^|\/)test[-.]/.test(f.path.slice(split.length + 1)));
  const chosen = (test.length ? test : files).sort((a, b) => (a.path < b.path ? -1 : 1));
  if (chosen.length === 0) throw new DatasetError(`Hugging Face dataset ${where}: no parquet files under ${split}/`);
  return chosen;
}

/** ": available configs: a, b" from the repository's top-level directories, or "" when they cannot be listed. */
async function configList(hub: Hub): Promise<string> {
  const { listFiles } = await hubClient();
  const dirs: string[] = [];
  try {
    for await (const f of listFiles({ ...hub, recursive: false })) if (f.type === 'directory' && !f.path.startsWith('.')) dirs.push(f.path);
  } catch {
    return '';
  }
  return dirs.length ? `; available configs: ${dirs.sort().join(', ')}` : '';
}

async function downloadSplit(dir: string, split: string, hub: Hub & { sha: string | null; config: string; language: string | null }): Promise<number> {
  // The Hub directory is the config (`<language>_<split>` per language); the cache keeps the bare split.
  const files = await listParquet(hub.config, hub);
  const tmp = join(dir, `.tmp-${split}-${process.pid}`);
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  let rows = 0;
  const { downloadFile } = await hubClient();
  try {
    for (const f of files) {
      const blob = await downloadFile({ ...hub, path: f.path }).catch((e: Error) => {
        throw new DatasetError(`Hugging Face file ${f.path}: download failed (${e.message})`);
      });
      if (!blob) throw new DatasetError(`Hugging Face file ${f.path}: listed but not downloadable`);
      rows += await writeRows(await blob.arrayBuffer(), f.path, tmp);
    }
    rmSync(join(dir, split), { recursive: true, force: true });
    renameSync(tmp, join(dir, split));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  const m: SplitManifest = { repo: hub.repo.name, revision: hub.revision, sha: hub.sha, split, config: hub.config, files, rows, written_at: new Date().toISOString() };
  writeFileSync(manifestPath(dir, split), JSON.stringify(m, null, 2) + '\n');
  return rows;
}

async function writeRows(buf: ArrayBuffer, path: string, outDir: string): Promise<number> {
  let rows: Array<Record<string, unknown>>;
  const { parquetReadObjects } = await import('hyparquet');
  try {
    rows = (await parquetReadObjects({ file: buf, columns: ['scenario_id', 'scenario'] })) as Array<Record<string, unknown>>;
  } catch (e) {
    throw new DatasetError(`Hugging Face file ${path}: not a readable parquet file with columns scenario_id, scenario (${(e as Error).message})`);
  }
  rows.forEach((row, i) => {
    const where = `Hugging Face file ${path} row ${i}`;
    const id = row.scenario_id;
    const text = row.scenario;
    if (typeof id !== 'string' || !id) throw new DatasetError(`${where}: column "scenario_id" must be a non-empty string`);
    if (typeof text !== 'string') throw new DatasetError(`${where}: column "scenario" must be a string holding the scenario JSON`);
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (e) {
      throw new DatasetError(`${where}: column "scenario" is not valid JSON (${(e as Error).message})`);
    }
    validScenario(data, `${where} (scenario ${id})`);
    writeFileSync(join(outDir, `${safeId(id, where)}.json`), text);
  });
  return rows.length;
}
