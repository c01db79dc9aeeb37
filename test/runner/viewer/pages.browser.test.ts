// Pages in a real headless Chromium (file://): filters, sorting, URL state, XSS canaries,
// in-trace search and lazy rendering.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildViewer } from '../../../runner/src/viewer/index.js';
import { launchBrowserLazily } from './browser.js';
import { writeRun } from './synthetic.js';

const CANARY = '</script><img src=x onerror="window.__xss=1"><script>window.__xss=2</script>';
let dir: string;
let browser: Awaited<ReturnType<typeof launchBrowserLazily>>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'viewer-pages-'));
  writeRun(dir, [
    { id: 'search/sc_2', split: 'search', status: 'pass', calls: 2 },
    { id: 'search/sc_10', split: 'search', status: 'fail', calls: 5 },
    { id: 'time/sc_1', split: 'time', status: 'error', calls: 1 },
    { id: 'time/sc_3', split: 'time', status: 'running', calls: 4 },
    { id: 'execution/xss', split: 'execution', status: 'fail', task: CANARY, toolArg: CANARY, reply: CANARY, calls: 3 },
    { id: 'execution/long', split: 'execution', status: 'pass', calls: 120 },
  ]);
  await buildViewer(dir);
  browser = await launchBrowserLazily();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function open(rel: string): Promise<{ page: Page; errors: string[]; requests: string[] }> {
  const page = await browser.context().newPage();
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(pathToFileURL(join(dir, rel)).href);
  await page.waitForSelector('#app > *');
  return { page, errors, requests };
}

const ids = (page: Page): Promise<string[]> => page.$$eval('#scenarios tbody tr', (trs) => trs.map((t) => t.getAttribute('data-id') ?? ''));

describe('run index', () => {
  it('filters by status, split and text, sorts naturally and keeps state in the URL', async () => {
    const { page, errors } = await open('index.html');
    expect(await ids(page)).toEqual(['execution/long', 'execution/xss', 'search/sc_2', 'search/sc_10', 'time/sc_1', 'time/sc_3']);
    await page.selectOption('#f-status', 'fail');
    expect(await ids(page)).toEqual(['execution/xss', 'search/sc_10']);
    await page.selectOption('#f-split', 'search');
    expect(await ids(page)).toEqual(['search/sc_10']);
    expect(page.url()).toContain('#status=fail&split=search');
    await page.selectOption('#f-status', '');
    await page.selectOption('#f-split', '');
    await page.fill('#f-text', 'container exited');
    expect(await ids(page)).toEqual(['time/sc_1']);
    await page.fill('#f-text', '');
    await page.click('th[data-key="llmCalls"]');
    expect(await ids(page)).toEqual(['time/sc_1', 'search/sc_2', 'execution/xss', 'time/sc_3', 'search/sc_10', 'execution/long']);
    expect(await page.getAttribute('th[data-key="llmCalls"]', 'aria-sort')).toBe('ascending');
    await page.click('th[data-key="llmCalls"]');
    expect((await ids(page))[0]).toBe('execution/long');
    // reload restores the state from the URL
    await page.reload();
    await page.waitForSelector('#scenarios');
    expect((await ids(page))[0]).toBe('execution/long');
    expect(await page.textContent('#counters')).toContain('Expected');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('split cards act as a split filter', async () => {
    const { page } = await open('index.html');
    // Each split card also totals its rows' tokens (agent + judge), as the table shows them.
    const rowTokens = await page.evaluate(() => {
      const rows = (window as unknown as { PAGE: { rows: Array<{ split: string; tokensIn: number; judgeTokensIn: number }> } }).PAGE.rows;
      return rows.filter((r) => r.split === 'time').reduce((n, r) => n + r.tokensIn + r.judgeTokensIn, 0);
    });
    expect(rowTokens).toBeGreaterThan(0);
    const fmt = (n: number) => (n >= 1e6 ? (n / 1e6).toFixed(2) + 'M' : n >= 1e3 ? (n / 1e3).toFixed(1) + 'k' : String(n));
    expect(await page.textContent('.split[data-split="time"]')).toContain(`${fmt(rowTokens)} in / `);
    await page.click('.split[data-split="time"]');
    expect(await ids(page)).toEqual(['time/sc_1', 'time/sc_3']);
    await page.close();
  });
});

describe('trace page', () => {
  it('keeps XSS canaries in a task, a tool argument and a reply inert', async () => {
    const { page, errors, requests } = await open('execution/xss/trace.html');
    const text = await page.textContent('#timeline');
    expect(text).toContain('onerror="window.__xss=1"'); // shown as text
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(await page.$$('#timeline img')).toHaveLength(0);
    expect(await page.$$('script')).toHaveLength(2);
    expect(requests.every((u) => u.startsWith('file://'))).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('renders large traces in pages, searches with highlighting, and navigates with keys', async () => {
    const { page } = await open('execution/long/trace.html');
    const first = await page.$$eval('#timeline > .item', (n) => n.length);
    expect(first).toBe(150);
    // scrolling the "show more" sentinel into view loads the next page
    await page.$eval('#more', (b) => b.scrollIntoView());
    await page.waitForFunction(() => document.querySelectorAll('#timeline > .item').length > 150);
    await page.fill('#trace-search', '--day 77');
    expect(await page.$$eval('#timeline > .item.hit', (n) => n.length)).toBe(1);
    expect(await page.textContent('#timeline mark')).toBe('--day 77');
    await page.fill('#trace-search', '');
    await page.click('h1');
    await page.keyboard.press('ArrowRight');
    await page.waitForURL(/execution\/xss\/trace\.html/);
    await page.close();
  });
});

describe('dashboards', () => {
  it('landing, pass@N dashboard and compare pages render without errors; the matrix filters', async () => {
    const root = join(dir, 'collection');
    writeRun(join(root, 'exp', 'run_1'), [{ id: 'search/a', status: 'pass' }, { id: 'search/b', status: 'fail' }, { id: 'time/c', status: 'pass' }]);
    writeRun(join(root, 'exp', 'run_2'), [{ id: 'search/a', status: 'fail' }, { id: 'search/b', status: 'fail' }, { id: 'time/c', status: 'pass' }]);
    writeRun(join(root, 'single'), [{ id: 'x', status: 'pass' }]);
    await buildViewer(root);
    const landing = await open('collection/index.html');
    expect(await landing.page.$$eval('#entries tbody tr', (t) => t.map((r) => r.getAttribute('data-name')))).toEqual(['exp', 'single']);
    await landing.page.click('a[href="exp/index.html"]');
    await landing.page.waitForSelector('#matrix');
    const rowsOf = (): Promise<string[]> => landing.page.$$eval('#matrix tbody tr', (t) => t.map((r) => r.getAttribute('data-id') ?? ''));
    expect(await rowsOf()).toEqual(['search/a', 'search/b', 'time/c']);
    await landing.page.check('#m-flaky');
    expect(await rowsOf()).toEqual(['search/a']);
    expect(await landing.page.textContent('#passk')).toContain('pass^k');
    await landing.page.click('a[href="compare.html"]');
    await landing.page.waitForSelector('#compare');
    await landing.page.check('#c-changed');
    expect(await landing.page.$$eval('#compare tbody tr', (t) => t.length)).toBe(1);
    expect(landing.errors).toEqual([]);
    await landing.page.close();
  });
});
