// The incremental-build manifest kept in each run dir: per scenario, the signature of its
// artifacts (plus anything else its page embeds) and the index row computed from them.
import { join } from 'node:path';
import { readJsonObject } from '../model/artifacts.js';
import type { IndexRow } from '../model/types.js';
import { writeIfChanged } from './fs-util.js';

/** Bump when page data or rendering changes, so old manifests are not trusted. */
export const VIEWER_FORMAT = 2;
export const MANIFEST_FILE = '.gaia2-viewer.json';

export interface Manifest {
  format: number;
  /** hash: of the page last written, so an unchanged page is not rewritten (or re-read). */
  entries: Record<string, { sig: string; row: IndexRow; hash?: string }>;
}

export function loadManifest(runDir: string): Manifest {
  const m = readJsonObject(join(runDir, MANIFEST_FILE));
  if (!m || m.format !== VIEWER_FORMAT || typeof m.entries !== 'object' || m.entries === null) return { format: VIEWER_FORMAT, entries: {} };
  return m as unknown as Manifest;
}

export function saveManifest(runDir: string, m: Manifest): void {
  writeIfChanged(join(runDir, MANIFEST_FILE), JSON.stringify(m));
}
