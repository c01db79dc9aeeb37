// A run a stuck loop ended, in a real headless Chromium: the index marks the row under its
// status and finds it by "stuck loop"; the trace page's verdict names the repeated call.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { stuckLoopReason, type StuckLoopRecord } from '../../../runner/src/run/stuck-loop.js';
import { useBuiltRun } from './browser.js';
import { writeRun } from './synthetic.js';

const loop: StuckLoopRecord = { tool: 'ShoppingApp__list_cart', args: { page: 2 }, count: 12, min_tool_calls: 5, line: 8 };
const run = useBuiltRun('viewer-stuck-browser-', (dir) => {
  writeRun(dir, [{ id: 'search/looped', split: 'search', status: 'fail' }, { id: 'search/plain', split: 'search', status: 'fail' }]);
  const file = join(dir, 'search', 'looped', 'result.json');
  writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), failure_reasons: [stuckLoopReason(loop)], stuck_loop: loop }));
});

async function open(rel: string): Promise<{ page: Page; errors: string[] }> {
  const page = await run.browser().newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(pathToFileURL(join(run.dir(), rel)).href);
  await page.waitForSelector('#app > *');
  return { page, errors };
}

describe('stuck loops in the pages', () => {
  it('the index marks the row and its text filter finds it', async () => {
    const { page, errors } = await open('index.html');
    expect(await page.textContent('#scenarios tbody tr[data-id="search/looped"]')).toContain('stuck loop');
    expect(await page.textContent('#scenarios tbody tr[data-id="search/plain"]')).not.toContain('stuck loop');
    await page.fill('#f-text', 'stuck loop');
    expect(await page.$$eval('#scenarios tbody tr', (trs) => trs.map((t) => t.getAttribute('data-id')))).toEqual(['search/looped']);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("the trace page's verdict names the call, its count, the threshold and the line, with the arguments", async () => {
    const { page, errors } = await open('search/looped/trace.html');
    expect(await page.textContent('#stuck-loop')).toBe('stuck loop: ShoppingApp__list_cart × 12 in a row, same result (stuck_loop_min_tool_calls = 5, threshold reached at events.jsonl line 8)');
    expect(await page.textContent('#verdict')).toContain('"page": 2');
    expect(await page.textContent('#verdict')).toContain('Stuck loop: the agent called ShoppingApp__list_cart 12 times in a row');
    const plain = await open('search/plain/trace.html');
    expect(await plain.page.$('#stuck-loop')).toBeNull();
    expect([...errors, ...plain.errors]).toEqual([]);
    await page.close();
    await plain.page.close();
  });
});
