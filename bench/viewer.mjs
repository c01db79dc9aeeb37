#!/usr/bin/env node
// Viewer benchmark: 1,000 synthetic scenario runs (~80 KB trace each) → full build time,
// incremental rebuild after one artifact change, no-change rebuild, and memory.
// Reference (gaia2-cli generate_all): ≈ 1.1 s for 1,000 runs. Target: incremental ≤ 0.1 s.
// Usage: node bench/viewer.mjs [--runs 1000] [--trace-kb 80] [--keep]
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { register } from 'tsx/esm/api';

register();
const { writeRun } = await import('../test/runner/viewer/synthetic.ts');
const { buildViewerDetailed } = await import('../runner/src/viewer/index.ts');

const arg = (name, def) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
};
const runs = arg('runs', 1000);
const traceKb = arg('trace-kb', 80);
const dir = mkdtempSync(join(tmpdir(), 'gaia2-viewer-bench-'));
const splits = ['search', 'execution', 'adaptability', 'time', 'ambiguity'];
const statuses = ['pass', 'pass', 'fail', 'error'];

const t0 = performance.now();
writeRun(
  dir,
  Array.from({ length: runs }, (_, i) => ({
    id: `${splits[i % 5]}/scenario_${i}`,
    split: splits[i % 5],
    status: statuses[i % 4],
    calls: 8,
    traceBytes: traceKb * 1024,
  })),
);
const genMs = performance.now() - t0;
const traceBytes = statSync(join(dir, 'search', 'scenario_0', 'trace.jsonl')).size;

// Wall time and this process's CPU time (user+system): on a shared, loaded machine the CPU
// time is the steadier figure.
const measure = (label, fn) => {
  const start = performance.now();
  const cpu0 = process.cpuUsage();
  const r = fn();
  const cpu = process.cpuUsage(cpu0);
  const ms = performance.now() - start;
  return { label, ms, cpuMs: (cpu.user + cpu.system) / 1000, pages: r.pages, rewritten: r.written.length };
};

const rssBefore = process.memoryUsage().rss;
let peakRss = rssBefore;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 5);
const full = measure('full build', () => buildViewerDetailed(dir, { incremental: false }));
peakRss = Math.max(peakRss, process.memoryUsage().rss);
const noop = measure('rebuild, nothing changed', () => buildViewerDetailed(dir));
const changedFile = join(dir, 'time', 'scenario_3', 'result.json');
writeFileSync(changedFile, JSON.stringify({ status: 'pass', success: true }));
const one = measure('one change, stat scan', () => buildViewerDetailed(dir));
writeFileSync(changedFile, JSON.stringify({ status: 'fail', success: false }));
const hinted = measure('one change, watcher hint', () => buildViewerDetailed(dir, { changed: [changedFile] }));
clearInterval(sampler);

// The machine's own floor, to read the numbers against: writing as many pages of the same
// size, and stat-ing every tracked artifact once.
const pageBytes = statSync(join(dir, 'search', 'scenario_0', 'trace.html')).size;
const floorDir = mkdtempSync(join(tmpdir(), 'gaia2-viewer-floor-'));
const payload = 'x'.repeat(pageBytes);
let t = performance.now();
for (let i = 0; i < runs; i++) writeFileSync(join(floorDir, `p${i}`), payload);
const writeFloorMs = performance.now() - t;
t = performance.now();
for (let i = 0; i < runs * 8; i++) {
  try {
    statSync(join(floorDir, `p${i % runs}`));
  } catch {}
}
const statFloorMs = performance.now() - t;
rmSync(floorDir, { recursive: true, force: true });

const mb = (b) => `${(b / 1024 / 1024).toFixed(0)} MB`;
console.log(`viewer bench: ${runs} scenario runs, trace.jsonl ≈ ${(traceBytes / 1024).toFixed(0)} KB each (generated in ${(genMs / 1000).toFixed(1)} s)`);
for (const m of [full, noop, one, hinted]) console.log(`  ${m.label.padEnd(26)} ${(m.ms / 1000).toFixed(3)} s wall, ${(m.cpuMs / 1000).toFixed(3)} s CPU  (${m.pages} pages, ${m.rewritten} rewritten)`);
console.log(`  memory: peak RSS ${mb(peakRss)} (start ${mb(rssBefore)}), heap used after ${mb(process.memoryUsage().heapUsed)}`);
console.log(`  machine floor: writing ${runs} files of ${(pageBytes / 1024).toFixed(0)} KB ${(writeFloorMs / 1000).toFixed(3)} s; ${runs * 8} stats ${(statFloorMs / 1000).toFixed(3)} s; load average ${(await import('node:os')).loadavg()[0].toFixed(1)}`);
console.log(`  reference full build ≈ 1.1 s; incremental target ≤ 0.1 s: ${hinted.ms <= 100 ? 'met' : 'NOT met'} with a watcher hint (serve, wall), ${one.ms <= 100 ? 'met' : 'not met'} with a stat scan (view, wall)`);
if (!process.argv.includes('--keep')) rmSync(dir, { recursive: true, force: true });
else console.log(`  kept: ${dir}`);
