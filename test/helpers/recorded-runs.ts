// Real run directories recorded by the end-to-end suites (test/fixtures/third-party-runs,
// own-agent-run; their READMEs say which run), copied to a temporary directory so a test may
// write into them. Gzipped records are unpacked on the way.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach } from 'vitest';

export const FIXTURES = join(import.meta.dirname, '..', 'fixtures');
export const THIRD_PARTY_AGENTS = ['claude-code', 'codex', 'gemini-cli', 'openclaw'] as const;
export const THIRD_PARTY_SCENARIO = 'exec_shopping_bottle_order';

/** A third-party agent's recorded model_traffic.jsonl. */
export function thirdPartyTraffic(agent: string): string {
  return gunzipSync(readFileSync(join(FIXTURES, 'third-party-runs', agent, THIRD_PARTY_SCENARIO, 'model_traffic.jsonl.gz'))).toString('utf8');
}

function unpack(dir: string): void {
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, d.name);
    if (d.isDirectory()) unpack(p);
    else if (d.name.endsWith('.gz')) {
      writeFileSync(p.slice(0, -3), gunzipSync(readFileSync(p)));
      rmSync(p);
    }
  }
}

/** A copy of a recorded run directory (relative to test/fixtures); removed by the returned cleanup. */
export function copyRecordedRun(rel: string): { dir: string; cleanup: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'gaia2-recorded-'));
  const dir = join(root, 'run');
  cpSync(join(FIXTURES, rel), dir, { recursive: true });
  unpack(dir);
  return { dir, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** A copier for a test file: each copy is removed after the test that made it. */
export function recordedRunCopies(): (rel: string) => string {
  const cleanups: Array<() => void> = [];
  afterEach(() => cleanups.splice(0).forEach((c) => c()));
  return (rel) => {
    const { dir, cleanup } = copyRecordedRun(rel);
    cleanups.push(cleanup);
    return dir;
  };
}
