import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { daemonScenarioMs, sumDaemonScenarioMs } from '../../bench/lib/daemon-span.js';

const LOG = [
  '2026-11-22 07:46:20,311 gaia2.eventd INFO adapter listening on 0.0.0.0:8090',
  '2026-11-22 07:46:20,328 gaia2.eventd INFO world ready: agent=oracle, tools=shopping, judge=hard-only',
  '2026-11-22 07:46:20,343 gaia2.eventd INFO >>> TURN BOUNDARY DETECTED — turn 1 <<<',
  '2026-11-22 07:46:21,051 gaia2.eventd INFO status complete: all turns done and judged',
  '2026-11-22 07:46:21,053 gaia2.eventd INFO final status complete: all turns done and judged',
].join('\n');

describe('daemonScenarioMs', () => {
  it('spans "world ready" to the terminal status line, across a second boundary', () => {
    expect(daemonScenarioMs(LOG)).toBe(723);
  });

  it('counts an error status as the end; null without a ready line or an end', () => {
    const err = LOG.replace('INFO status complete', 'ERROR status error');
    expect(daemonScenarioMs(err)).toBe(723);
    expect(daemonScenarioMs(LOG.split('\n').filter((l) => !l.includes('world ready')).join('\n'))).toBeNull();
    expect(daemonScenarioMs(LOG.split('\n').slice(0, 3).join('\n'))).toBeNull();
  });

  it('sums every run directory and skips attempt copies', () => {
    const root = mkdtempSync(join(tmpdir(), 'span-'));
    for (const d of ['a/s1', 'a/s2', 'a/.attempts/s1']) {
      mkdirSync(join(root, d), { recursive: true });
      writeFileSync(join(root, d, 'eventd.log'), LOG);
    }
    expect(sumDaemonScenarioMs(root)).toEqual({ ms: 1446, runs: 2 });
  });
});
