// Noise-phase traces in a real headless Chromium: injected tool failures (which have no event
// line) and background noise events are shown in the timeline, marked as noise, and counted
// in a Noise panel; a standard run's page has neither.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { NOISE_EVENT_PREFIX, parseEventsJsonl } from '@gaia2/contract/events';
import { useBuiltRun } from './browser.js';
import { writeRun } from './synthetic.js';
import { writeNoiseRun } from './noise-run.js';

let noiseDir = '';
const run = useBuiltRun('viewer-noise-', async (dir) => {
  writeRun(dir, [{ id: 'search/plain', split: 'search', status: 'pass', calls: 2 }]);
  noiseDir = await writeNoiseRun(dir, 'time/noisy');
});

async function open(rel: string) {
  const page = await run.browser().newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(pathToFileURL(join(run.dir(), rel)).href);
  await page.waitForSelector('#timeline > *');
  return { page, errors };
}

describe('noise on trace pages', () => {
  it('shows the injected failure, the background events and the Noise panel', async () => {
    const fired = parseEventsJsonl(readFileSync(join(noiseDir, 'events.jsonl'), 'utf8')).filter((e) => e.event_id?.startsWith(NOISE_EVENT_PREFIX));
    expect(fired.length).toBeGreaterThan(0);
    const { page, errors } = await open('time/noisy/trace.html');
    const failures = await page.$$eval('.item.noise-failure', (ns) => ns.map((n) => n.textContent ?? ''));
    expect(failures).toHaveLength(1);
    expect(failures[0]).toContain('Injected tool failure (noise) · Shopping__add_to_cart');
    expect(failures[0]).toContain('$ shopping add-to-cart --item-id 979ebae459727b68d14bf48722b0eb16 --quantity 1');
    expect(failures[0]).toContain('Calling Shopping__add_to_cart failed with error: Internal error - Retry again later');
    const noise = await page.$$eval('.item.ev-noise', (ns) => ns.map((n) => n.textContent ?? ''));
    expect(noise).toHaveLength(fired.length);
    for (const [i, e] of fired.entries()) {
      expect(noise[i]).toContain(`Background noise (ENV) · ${e.app}.${e.fn}`);
      expect(noise[i]).toContain(e.event_id!);
    }
    // The failure comes before the retried add-to-cart and the checkout, after the task.
    const order = await page.$$eval('#timeline > .item', (ns) => ns.map((n) => n.className + ' ' + (n.textContent ?? '').slice(0, 80)));
    const failAt = order.findIndex((c) => c.includes('noise-failure'));
    const taskAt = order.findIndex((c) => c.includes('ev-user'));
    const addAt = order.findIndex((c) => c.includes('.add_to_cart'));
    const checkoutAt = order.findIndex((c) => c.includes('.checkout'));
    expect(taskAt).toBeLessThan(failAt);
    expect(addAt).toBeGreaterThan(failAt);
    expect(checkoutAt).toBeGreaterThan(addAt);
    const panel = await page.textContent('#noise');
    expect(panel).toContain('tool failures p=0.5');
    expect(panel).toContain('1 injected');
    expect(panel).toMatch(new RegExp(`background events 10/min \\(seed 0\\): ${fired.length} of \\d+ planned fired`));
    // Search finds the failure.
    await page.fill('#trace-search', 'noise tool failure');
    expect(await page.textContent('#hits')).toBe('1 matching items');
    expect(errors).toEqual([]);
  });

  it('a standard run shows no noise', async () => {
    const { page, errors } = await open('search/plain/trace.html');
    expect(await page.$$('.item.noise-failure')).toHaveLength(0);
    expect(await page.$$('.item.ev-noise')).toHaveLength(0);
    expect(await page.$('#noise')).toBeNull();
    expect(errors).toEqual([]);
  });
});
