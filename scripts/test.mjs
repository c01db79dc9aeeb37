// `npm test`: the whole suite (unit + end-to-end with real containers) in one vitest run,
// then one plain closing line "N passed, N failed" that any CI can read.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const report = join(root, '.cache', 'vitest-report.json');
mkdirSync(dirname(report), { recursive: true });
const args = ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)];
const r = spawnSync('npx', args, { cwd: root, stdio: 'inherit' });
let code = r.status ?? 1;
if (existsSync(report)) {
  const j = JSON.parse(readFileSync(report, 'utf8'));
  const skipped = (j.numPendingTests ?? 0) + (j.numTodoTests ?? 0);
  // Where the time went (issue V: CI stays fast): the slowest files, so a slow suite is seen.
  const files = (j.testResults ?? []).map((f) => ({ name: f.name.replace(`${root}/`, ''), s: ((f.endTime ?? 0) - (f.startTime ?? 0)) / 1000 }));
  const slow = files.sort((a, b) => b.s - a.s).slice(0, 15);
  if (slow.length) console.log(`\nslowest test files:\n${slow.map((f) => `  ${f.s.toFixed(0).padStart(5)} s  ${f.name}`).join('\n')}`);
  console.log(`\nvitest: ${j.numPassedTests} passed, ${j.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ''}`);
  if (j.numTotalTests === 0) code = code || 1;
}
process.exit(code);
