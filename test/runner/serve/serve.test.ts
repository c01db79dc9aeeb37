// `serve`: loopback binding, port fallback, confinement to the root, and live updates pushed
// to an open page in headless Chromium after an artifact changes (scenario results, and the
// model gateway's counts as a run writes them).
import { mkdtempSync, rmSync, writeFileSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayStats } from '../../../runner/src/gateway/index.js';
import { watchGateway } from '../../../runner/src/orchestrator/gateway-live.js';
import { formatTraffic, type TrafficCounts } from '../../../runner/src/progress/index.js';
import { serve, type ServeHandle } from '../../../runner/src/serve/index.js';
import { launchBrowserLazily } from '../viewer/browser.js';
import { writeRun, writeScenario } from '../viewer/synthetic.js';

let dir: string;
let handle: ServeHandle;
let browser: Awaited<ReturnType<typeof launchBrowserLazily>>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'viewer-serve-'));
  writeRun(dir, [{ id: 'search/a', status: 'pass' }, { id: 'search/b', status: 'running' }]);
  writeFileSync(join(dir, '.secret'), 'hidden');
  symlinkSync('/etc', join(dir, 'etc-link'));
  handle = await serve(dir, { debounceMs: 100 });
  browser = await launchBrowserLazily();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await handle?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('serve', () => {
  it('binds 127.0.0.1 on the first free default port and serves the built pages', async () => {
    expect(handle.url).toMatch(/^http:\/\/127\.0\.0\.1:441\d\d\/$/);
    const res = await fetch(handle.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(await res.text()).toContain('id="page-data"');
    const raw = await fetch(`${handle.url}search/a/result.json`);
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-security-policy')).toContain("default-src 'none'");
  });

  it('refuses traversal, dotfiles, symlinks out of the root, directory listings and writes', async () => {
    const base = handle.url.replace(/\/$/, '');
    for (const p of ['/../../etc/passwd', '/%2e%2e/%2e%2e/etc/passwd', '/.secret', '/.gaia2-viewer.json', '/etc-link/passwd', '/search/']) {
      expect((await fetch(base + p)).status, p).toBe(404);
    }
    expect((await fetch(handle.url, { method: 'POST' })).status).toBe(405);
  });

  it('falls back to another port when the default ones are taken, and errors on a busy explicit port', async () => {
    const port = Number(new URL(handle.url).port);
    const second = await serve(dir, {});
    try {
      expect(Number(new URL(second.url).port)).not.toBe(port);
    } finally {
      await second.close();
    }
    await expect(serve(dir, { port })).rejects.toThrow(`port ${port}`);
  });

  it('pushes updates to open pages within seconds after an artifact changes', async () => {
    const page = await browser.context().newPage();
    await page.goto(handle.url);
    await page.waitForSelector('#live.on');
    expect(await page.textContent('#counters')).toContain('Running');
    await page.selectOption('#f-status', 'pass'); // UI state survives the live refresh
    const before = Number(await page.getAttribute('body', 'data-version'));
    writeScenario(dir, { id: 'search/b', status: 'pass' }); // the running scenario finishes
    writeScenario(dir, { id: 'search/c', status: 'fail' }); // and a new one appears
    await page.waitForFunction((v) => Number(document.body.getAttribute('data-version')) > v, before, { timeout: 5000 });
    await page.waitForFunction(() => document.querySelectorAll('#scenarios tbody tr').length === 2, null, { timeout: 5000 });
    expect(await page.$$eval('#scenarios tbody tr', (t) => t.map((r) => r.getAttribute('data-id')))).toEqual(['search/a', 'search/b']);
    expect(await page.inputValue('#f-status')).toBe('pass');

    const trace = await browser.context().newPage();
    await trace.goto(`${handle.url}search/c/trace.html`);
    await trace.waitForSelector('#live.on');
    writeFileSync(join(dir, 'search', 'c', 'result.json'), JSON.stringify({ status: 'error', success: null, error: 'live-update-marker' }));
    await trace.waitForFunction(() => (document.getElementById('verdict')?.textContent ?? '').includes('live-update-marker'), null, { timeout: 5000 });
    await page.close();
    await trace.close();
  });
});

describe('the model gateway counts on the live dashboard', () => {
  it('shows queued, throttled and retried as the run gateway writes them, and their final values', async () => {
    // The run's own writer (orchestrator/gateway-live.ts) against the served directory.
    let now = { queued: 2, throttled: 1, retried: 3, requests: 7, tokens: 0, usd: 0 };
    const stats = (): GatewayStats => ({
      requests: now.requests, by_role: { agent: now.requests, app_agent: 0, judge: 0 }, queued_total: 4, throttled: now.throttled, retried: now.retried, gave_up: 0, resumed: 0, broken: 0, refused: 0, replayed: 0, over_budget: 0, spent: { tokens: now.tokens, usd: now.usd },
      providers: { anthropic: { queued: now.queued, queued_total: 4, throttled: now.throttled, retried: now.retried, gave_up: 0, resumed: 0, broken: 0, in_flight: 1, concurrency_cap: 1 } },
    });
    const lines: string[] = [];
    const progress = { start() {}, done() {}, stop() {}, log() {}, traffic: (t: TrafficCounts) => void lines.push(formatTraffic(t)) };
    const page = await browser.context().newPage();
    await page.goto(handle.url);
    await page.waitForSelector('#live.on');
    expect(await page.$('#gateway-counts')).toBeNull(); // no gateway (yet): no card
    const watch = watchGateway(stats, { outputDir: dir, progress, everyMs: 100 });
    try {
      await page.waitForFunction(() => document.getElementById('gateway-counts')?.textContent?.includes('queued 2 · throttled 1 · retried 3'), null, { timeout: 5000 });
      // with a budget the gateway counts the agent side's spend: shown beside the counts
      now = { queued: 0, throttled: 4, retried: 9, requests: 12, tokens: 23456, usd: 0.0712 };
      await page.waitForFunction(() => document.getElementById('gateway-counts')?.textContent?.includes('queued 0 · throttled 4 · retried 9 · spent 23,456 tokens ($0.07)'), null, { timeout: 5000 });
      expect(await page.textContent('#gateway-counts')).not.toContain('run ended');
    } finally {
      await watch.stop();
    }
    await page.waitForFunction(() => document.getElementById('gateway-counts')?.textContent?.includes('run ended'), null, { timeout: 5000 });
    // The progress line showed the same counts (the last once more as the run ended).
    expect(lines).toEqual([' gw: queued=2 throttled=1 retried=3', ' gw: queued=0 throttled=4 retried=9', ' gw: queued=0 throttled=4 retried=9']);
    await page.close();
  });
});

describe('port helper', () => {
  it('reports EADDRINUSE ports as busy rather than crashing', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as { port: number }).port;
    try {
      await expect(serve(dir, { port })).rejects.toThrow(/in use/);
    } finally {
      blocker.close();
    }
  });
});
