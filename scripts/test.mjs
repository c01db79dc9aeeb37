// `npm test`: the whole suite (unit + end-to-end with real containers) in one vitest run,
// then one plain closing line "N passed, N failed" that any CI can read.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const report = join(root, '.cache', 'vitest-report.json');
// What each fault of the fault-injection suites cost (test/e2e/helpers/fault-run.ts appends a line
// per fault): printed at the end, so every CI log carries docs/reliability.md's figures afresh.
const faults = join(root, '.cache', 'fault-figures.jsonl');
mkdirSync(dirname(report), { recursive: true });
rmSync(faults, { force: true });
const args = ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)];
const r = spawnSync('npx', args, { cwd: root, stdio: 'inherit' });
let code = r.status ?? 1;
if (existsSync(report)) {
  const j = JSON.parse(readFileSync(report, 'utf8'));
  const skipped = (j.numPendingTests ?? 0) + (j.numTodoTests ?? 0);
  // Where the time went (issue V: CI stays fast): the slowest files, so a slow suite is seen.
  // An e2e file's own start time leaves out its beforeAll (where the agent suites do their runs);
  // those files run one at a time, so each one's time is from the previous one's end to its own.
  const all = (j.testResults ?? []).map((f) => ({ name: f.name.replace(`${root}/`, ''), start: f.startTime ?? 0, end: f.endTime ?? 0 }));
  const e2e = all.filter((f) => f.name.startsWith('test/e2e/')).sort((a, b) => a.end - b.end);
  const unitEnd = Math.max(0, ...all.filter((f) => !f.name.startsWith('test/e2e/')).map((f) => f.end));
  const files = all.map((f) => {
    const i = e2e.indexOf(f);
    const from = i > 0 ? e2e[i - 1].end : i === 0 ? Math.min(f.start, unitEnd || f.start) : f.start;
    return { name: f.name, s: (f.end - from) / 1000 };
  });
  const slow = files.sort((a, b) => b.s - a.s).slice(0, 15);
  if (slow.length) console.log(`\nslowest test files:\n${slow.map((f) => `  ${f.s.toFixed(0).padStart(5)} s  ${f.name}`).join('\n')}`);
  if (existsSync(faults)) {
    const rows = readFileSync(faults, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const row = (f) => `  ${f.fault} (${f.engine}): ${f.passed}/${f.runs} passed, ${f.restarts} restarted, fault ${f.fault_s === null ? '—' : `${f.fault_s.toFixed(1)} s`}, run ${f.wall_s.toFixed(0)} s`;
    console.log(`\nfaults injected (docs/reliability.md):\n${rows.map(row).join('\n')}`);
  }
  console.log(`\nvitest: ${j.numPassedTests} passed, ${j.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ''}`);
  if (j.numTotalTests === 0) code = code || 1;
}
process.exit(code);
