// The page pool: pages rendered on worker threads are the pages rendered inline, and a worker
// that cannot start costs nothing but time.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scanArtifacts } from '../../../../runner/src/viewer/model/artifacts.js';
import { ScenarioInfoCache } from '../../../../runner/src/viewer/model/oracle.js';
import { renderPages } from '../../../../runner/src/viewer/build/page-pool.js';
import type { PageJob, PageOutcome } from '../../../../runner/src/viewer/build/scenario-page.js';
import { writeRun } from '../synthetic.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'viewer-pool-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const ctx = () => ({ runDir: dir, runName: 'r', configSplits: [] });

function jobs(n: number): PageJob[] {
  const ids = Array.from({ length: n }, (_, i) => `s/sc_${i}`);
  writeRun(dir, ids.map((id, i) => ({ id, status: i % 3 ? 'pass' : 'fail', toolArg: '</script><b>x</b> \u2028' })));
  return ids.map((id) => ({ id, dir: join(dir, ...id.split('/')), prevHref: '', nextHref: '', homeHref: '../../index.html', files: scanArtifacts(join(dir, ...id.split('/'))) }));
}

const pages = (js: PageJob[]): string[] => js.map((j) => readFileSync(join(j.dir, 'trace.html'), 'utf8'));
/** Error texts name a random temp file: compare what failed, not how. */
const comparable = (outs: PageOutcome[]) => outs.map((o) => ('error' in o ? o.error.split(':')[1] : o));

describe('renderPages', () => {
  it('renders the same pages and outcomes on worker threads as inline, in job order', () => {
    const js = [...jobs(12), { id: 'gone', dir: join(dir, 'gone'), prevHref: '', nextHref: '', homeHref: '', files: new Map() }];
    const inline = renderPages(js, ctx(), new ScenarioInfoCache(), { threads: 1 });
    const before = pages(js.slice(0, 12));
    rmSync(join(js[0]!.dir, 'trace.html'));
    // This thread only waits: every page comes from a worker.
    const pooled = renderPages(js, ctx(), new ScenarioInfoCache(), { threads: 3, minJobsPerThread: 1, renderHere: false });
    expect(comparable(pooled)).toEqual(comparable(inline));
    expect(pages(js.slice(0, 12))).toEqual(before);
    expect(inline.map((o) => ('error' in o ? 'error' : o.row.id))).toEqual([...js.slice(0, 12).map((j) => j.id), 'error']);
  });

  it('scans the dir itself when not given a scan, and does not rewrite a page whose hash is unchanged', () => {
    const js = jobs(4);
    const first = renderPages(js, ctx(), new ScenarioInfoCache(), { threads: 2, minJobsPerThread: 1 });
    const again = renderPages(
      js.map((j, i) => ({ ...j, files: undefined, cachedHash: (first[i] as { hash: string }).hash })),
      ctx(),
      new ScenarioInfoCache(),
      { threads: 2, minJobsPerThread: 1 },
    );
    expect(again.map((o) => 'written' in o && o.written)).toEqual([false, false, false, false]);
  });

  it('renders everything here, without waiting long, when the workers cannot start', () => {
    const js = jobs(6);
    const t0 = Date.now();
    const out = renderPages(js, ctx(), new ScenarioInfoCache(), { threads: 2, minJobsPerThread: 1, renderHere: false, worker: { entry: 'file:///nonexistent/page-worker.mjs' } });
    expect(out.every((o) => 'written' in o && o.written)).toBe(true);
    expect(Date.now() - t0).toBeLessThan(20_000);
  });
});
