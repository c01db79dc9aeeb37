// A run big enough to share its pages with worker threads builds the same files as one built
// on a single thread, and stays incremental afterwards.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { buildViewerDetailed } from '../../../../runner/src/viewer/index.js';
import { writeRun } from '../synthetic.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'viewer-run-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Every output file (pages and manifest) by relative path. */
function outputs(root: string, rel = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(join(root, rel), { withFileTypes: true })) {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) Object.assign(out, outputs(root, p));
    else if (/\.html$|^\.gaia2-viewer\.json$/.test(e.name)) out[p] = readFileSync(join(root, p), 'utf8');
  }
  return out;
}

it('builds the same pages and manifest on two threads as on one, and rebuilds incrementally after', () => {
  const n = 80;
  writeRun(dir, Array.from({ length: n }, (_, i) => ({ id: `split_${i % 3}/sc_${i}`, status: i % 4 ? ('pass' as const) : ('fail' as const), toolArg: '</script>&' })));
  expect(buildViewerDetailed(dir, { incremental: false, threads: 1 }).written).toHaveLength(n + 1);
  const single = outputs(dir);
  for (const p of Object.keys(single)) if (p.endsWith('trace.html')) rmSync(join(dir, p));

  expect(buildViewerDetailed(dir, { incremental: false, threads: 2 }).written).toHaveLength(n);
  expect(outputs(dir)).toEqual(single);
  expect(buildViewerDetailed(dir).written).toEqual([]);

  // A changed artifact of the same size is still seen (its mtime moved).
  const result = join(dir, 'split_1', 'sc_7', 'result.json');
  const text = readFileSync(result, 'utf8');
  writeFileSync(result, text.replace('"pass"', '"fail"').replace('"success":true', '"success":null'));
  expect(statSync(result).size).toBe(text.length);
  expect(buildViewerDetailed(dir).written.map((f) => f.slice(dir.length))).toEqual(['/split_1/sc_7/trace.html', '/index.html']);
});
