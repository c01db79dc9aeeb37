// Headless Chromium for page tests (Debian `chromium`). A missing browser fails loudly:
// these tests are part of acceptance and must not silently skip.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

export const CHROMIUM_PATH = process.env.GAIA2_CHROMIUM ?? '/usr/bin/chromium';

export interface TestBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<TestBrowser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: run the project's setup (bash scripts/setup-browser.sh) or set GAIA2_CHROMIUM.`);
  }
  const userDataDir = mkdtempSync(join(tmpdir(), 'gaia2-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/**
 * For beforeAll: never throws, so a missing browser fails every test with the setup message
 * (through `context()`) instead of vitest reporting them as skipped.
 */
export async function launchBrowserLazily(): Promise<{ context(): BrowserContext; close(): Promise<void> }> {
  let browser: TestBrowser | null = null;
  let failure: Error | null = null;
  try {
    browser = await launchBrowser();
  } catch (err) {
    failure = err as Error;
  }
  return {
    context() {
      if (!browser) throw failure!;
      return browser.context;
    },
    async close() {
      await browser?.close();
    },
  };
}

export type { Browser };

/**
 * A run directory filled by `fill`, its viewer built, and a browser, for one test file:
 * made in beforeAll, removed in afterAll.
 */
export function useBuiltRun(prefix: string, fill: (dir: string) => unknown): { dir(): string; browser(): BrowserContext } {
  let dir = '';
  let browser: Awaited<ReturnType<typeof launchBrowserLazily>> | null = null;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    await fill(dir);
    const { buildViewer } = await import('../../../runner/src/viewer/index.js');
    await buildViewer(dir);
    browser = await launchBrowserLazily();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return { dir: () => dir, browser: () => browser!.context() };
}
