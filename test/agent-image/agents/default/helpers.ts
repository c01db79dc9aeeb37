import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { initWorld, runCli } from '../../../../agent-image/src/apps/index.js';
import type { CliRunResult } from '../../../../agent-image/src/agents/default/index.js';
import { composeWorld } from '../../../../agent-image/src/main/compose/compose-world.js';
import { settingsFromEnv } from '../../../../agent-image/src/world/config.js';
import type { ReplyInfo } from '../../../../agent-image/src/world/daemon.js';
import { serveAgentSocket } from '../../../../agent-image/src/world/sockets.js';

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

/** The real world daemon on the golden scenario, serving the agent socket in a temp dir. */
export async function startWorld(scenarioFile: URL = SCENARIO_FILE, env: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'agent-world-run-'));
  const stateDir = join(dir, 'state');
  const composed = await composeWorld({
    scenario: readFileSync(scenarioFile, 'utf8'),
    scenarioFile: scenarioFile.pathname,
    stateDir,
    settings: settingsFromEnv({ GAIA2_AGENT: 'default', GAIA2_CLOCK_MODE: 'fast-forward', ...env }),
  });
  const socketPath = join(dir, 'agent.sock');
  const server = await serveAgentSocket(composed.world, socketPath, composed.tools);
  const replies: ReplyInfo[] = [];
  composed.world.onReply((r) => replies.push(r));
  composed.world.start();
  return { dir, stateDir, socketPath, server, replies, world: composed.world, tools: composed.tools };
}
