// The leaderboard page in a real headless Chromium (file://): its rows, the links into each
// run's viewer (which then renders), hostile names shown as text, the viewer's look applied
// under the page's strict policy, and no request beyond the page itself.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../config/in-process-cli.js';
import { finishedRoot } from '../submission/phase-root.js';
import { launchBrowserLazily } from '../viewer/browser.js';
import { datasetRun, writeDatasets } from './runs.js';

const CANARY = '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>';
let root: string;
let phasesRoot: string;
let site: string;
let browser: Awaited<ReturnType<typeof launchBrowserLazily>>;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'leaderboard-page-'));
  const d = writeDatasets(root);
  const a = await datasetRun({ dataset: d.full, out: join(root, 'claude run'), model: 'claude-sonnet-4-20250514', provider: 'anthropic', decide: (id) => (id === 'c' ? 'fail' : 'pass') });
  // a run whose folder and model are hostile
  const x = await datasetRun({ dataset: d.part, out: join(root, 'x <img src=x onerror="window.__xss=3">'), model: CANARY, provider: 'openai', decide: () => 'fail' });
  const g = await finishedRoot((id, r) => (id === 'a' || r === 1 ? 'pass' : 'fail'));
  phasesRoot = dirname(g);
  site = join(root, 'site');
  const r = await runCliInProcess(['leaderboard', a, x, g, '--out', site, '--title', CANARY, '--format', 'none'], root);
  if (r.code !== 0) throw new Error(r.err);
  browser = await launchBrowserLazily();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  for (const d of [root, phasesRoot]) if (d) rmSync(d, { recursive: true, force: true });
});

async function open(): Promise<{ page: Page; errors: string[]; requests: string[] }> {
  const page = await browser.context().newPage();
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(pathToFileURL(join(site, 'leaderboard.html')).href);
  await page.waitForSelector('table.grid');
  return { page, errors, requests };
}

const cells = (page: Page, setting: string, table: number, col: number) =>
  page.$$eval(`section#setting-${setting} table.grid`, (ts, [t, c]) => [...ts[t]!.querySelectorAll('tbody tr')].map((tr) => tr.children[c]!.textContent ?? ''), [table, col] as const);

describe('leaderboard page', () => {
  it('one row per run in each table of its setting, ordered, with the rate and its interval', async () => {
    const { page, errors, requests } = await open();
    expect(await page.$$eval('section.setting h2', (hs) => hs.map((h) => h.textContent))).toEqual(['Standard setting: 3 run(s)', 'Noise setting: 1 run(s)']);
    // Run column (4th) of both tables: best mean of splits first; the hostile folder is its text
    const runsOrder = ['claude run', 'out/standard', 'x <img src=x onerror="window.__xss=3">'];
    expect(await cells(page, 'standard', 0, 3)).toEqual(runsOrder);
    expect(await cells(page, 'standard', 1, 3)).toEqual(runsOrder);
    expect(await cells(page, 'noise', 0, 3)).toEqual(['out/noise']);
    // claude run: 3 of 4 pass overall (8th column), shown with its SE and interval under it
    const overall = await cells(page, 'standard', 0, 7);
    expect(overall[0]).toBe('75.0%± 25.0% [26.0%, 100.0%]');
    // the scenario sets differ (the claude run has execution/d): the page says so
    expect(await page.textContent('section#setting-standard .notes p.warn')).toContain('3 scenario(s) are common to all 3 rows, 4 are in some row');
    expect(errors).toEqual([]);
    expect(requests.every((u) => u.startsWith('file://'))).toBe(true);
    expect(requests).toHaveLength(1);
    await page.close();
  });

  it('hostile names are text: nothing runs, the title and model read as given', async () => {
    const { page, errors } = await open();
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(await page.title()).toBe(CANARY);
    expect(await page.textContent('h1')).toBe(CANARY);
    const models = await cells(page, 'standard', 0, 2);
    expect(models[2]).toBe(`${CANARY}openai`);
    expect(await page.$$('main img, main script')).toHaveLength(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("looks like the viewer (its stylesheet applies under the page's policy)", async () => {
    const { page } = await open();
    // --bg of the viewer's stylesheet, and its sticky top bar
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(247, 247, 245)');
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('header.top')!).position)).toBe('sticky');
    await page.close();
  });

  it("each run links to its own viewer, which opens and renders", async () => {
    const { page } = await open();
    const hrefs = await page.$$eval('section#setting-standard table.grid:first-of-type tbody tr td:nth-child(4) a', (as) => as.map((a) => a.getAttribute('href')));
    expect(hrefs).toEqual(['../claude%20run/index.html', expect.stringMatching(/\/out\/standard\/index\.html$/), '../x%20%3Cimg%20src%3Dx%20onerror%3D%22window.__xss%3D3%22%3E/index.html']);
    await page.click('section#setting-standard table.grid >> nth=0 >> a >> nth=0');
    await page.waitForSelector('#app > *');
    expect(decodeURIComponent(page.url())).toBe(pathToFileURL(join(root, 'claude run', 'index.html')).href.replace(/%20/g, ' '));
    // the run's own index: its scenario table lists the run's four scenarios
    expect(await page.$$eval('#scenarios tbody tr', (trs) => trs.length)).toBe(4);
    // the pass@N dashboard of a gaia2-run phase opens too
    await page.goBack();
    await page.click('section#setting-standard table.grid >> nth=0 >> a >> nth=1');
    await page.waitForSelector('#app > *');
    expect(page.url()).toMatch(/\/out\/standard\/index\.html$/);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    await page.close();
  });
});
