// `npm run bench [name…]`: runs every benchmark in bench/ (or the named ones), each in its
// own process through tsx so benchmarks can import the TypeScript sources directly.
// `npm run bench -- --smoke [name…]`: each at the tiny size bench/smoke.json gives it, to prove
// it still runs (CI does this); a smoke run's figures mean nothing.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const smoke = process.argv.includes('--smoke');
const wanted = process.argv.slice(2).filter((a) => a !== '--smoke');
const files = readdirSync(here)
  .filter((f) => /\.(mjs|ts)$/.test(f) && f !== 'run.mjs' && !f.startsWith('_'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.startsWith(w)));
const sizes = smoke ? JSON.parse(readFileSync(join(here, 'smoke.json'), 'utf8')) : {};
let failed = 0;
for (const f of files) {
  const size = sizes[f];
  if (smoke && !size) {
    console.error(`bench/smoke.json: no entry for ${f} (give it a tiny size: "args" and/or "env")`);
    failed++;
    continue;
  }
  console.log(`\n## ${f}${smoke ? ' (smoke size)' : ''}`);
  const r = spawnSync('npx', ['tsx', join(here, f), ...(size?.args ?? [])], { stdio: 'inherit', env: { ...process.env, ...(size?.env ?? {}) } });
  if (r.status !== 0) {
    console.error(`bench ${f}: ${r.signal ? `killed by ${r.signal}` : `exit ${r.status}`}`);
    failed++;
  }
}
process.exit(failed ? 1 : 0);
