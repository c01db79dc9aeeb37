import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { initWorld, runCli } from '../../../../agent-image/src/apps/index.js';
import { parseScenario } from '../../../../agent-image/src/contract/scenario.js';
import type { CliRunResult } from '../../../../agent-image/src/agents/default/index.js';

/** A directory of stub CLIs: each prints its argv as JSON and exits with the given code. */
export function stubBin(clis: Record<string, { exit?: number; stdout?: string }>): string {
  const dir = mkdtempSync(join(tmpdir(), 'agent-bin-'));
  for (const [name, { exit = 0, stdout }] of Object.entries(clis)) {
    const body = stdout !== undefined ? `printf '%s\\n' '${stdout}'` : `printf '{"cli": "${name}", "args": "%s"}\\n' "$*"`;
    const file = join(dir, name);
    writeFileSync(file, `#!/bin/bash\n${body}\n${exit ? `echo "${name}: failed" >&2\nexit ${exit}\n` : ''}`);
    chmodSync(file, 0o755);
  }
  return dir;
}

export const SCENARIO_FILE = new URL('../../../fixtures/golden/scenarios/search/search_cab_cheapest_airport.json', import.meta.url);

/** The real apps, in-process, on a fresh state dir seeded from a golden scenario. */
export async function inProcessApps(): Promise<{ stateDir: string; run: (argv: string[]) => Promise<CliRunResult> }> {
  const stateDir = mkdtempSync(join(tmpdir(), 'agent-world-'));
  const raw = JSON.parse(readFileSync(SCENARIO_FILE, 'utf8'));
  await initWorld(raw, stateDir);
  return {
    stateDir,
    run: async (argv) => {
      const r = await runCli(argv, { stateDir, simTime: '2024-10-15 07:00:00' });
      return { stdout: r.stdout, stderr: r.stderr, exit_code: r.exitCode };
    },
  };
}

export { parseScenario };
