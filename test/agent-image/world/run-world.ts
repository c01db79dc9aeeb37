// Runs a scenario in-process (daemon + in-process or socket agent) against a temp state dir.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DaemonStatus } from '../../../agent-image/src/contract/status.js';
import type { EventLine } from '../../../agent-image/src/contract/events.js';
import { composeWorld, type ComposedWorld } from '../../../agent-image/src/main/compose/compose-world.js';
import { settingsFromEnv, type DaemonSettings } from '../../../agent-image/src/world/config.js';
import { parseLog, readGolden } from './golden.js';

export const tempStateDir = (): string => mkdtempSync(join(tmpdir(), 'gaia2-world-'));

export function testSettings(over: Partial<DaemonSettings> = {}): DaemonSettings {
  return { ...settingsFromEnv({ GAIA2_AGENT: 'oracle', GAIA2_JUDGE_FINAL_TURN: '1' }), ...over };
}

export interface WorldRun {
  composed: ComposedWorld;
  status: DaemonStatus;
  lines: EventLine[];
  stateDir: string;
}

/** Oracle run of a golden scenario (path relative to the golden dir). */
export async function runOracle(scenarioRel: string, over: Partial<DaemonSettings> = {}): Promise<WorldRun> {
  const stateDir = tempStateDir();
  const composed = await composeWorld({
    scenario: readGolden(scenarioRel),
    scenarioFile: scenarioRel,
    stateDir,
    settings: testSettings(over),
  });
  composed.world.start();
  composed.world.markReady();
  const status = await composed.world.finished();
  const lines = parseLog(readFileSync(join(stateDir, 'events.jsonl'), 'utf8'));
  return { composed, status, lines, stateDir };
}

/** A world with the agent socket served on a temp path, for protocol clients in the same process. */
export async function socketWorld(scenarioRel: string, over: Partial<DaemonSettings> = {}) {
  const { serveAgentSocket } = await import('../../../agent-image/src/world/sockets.js');
  const stateDir = tempStateDir();
  const composed = await composeWorld({
    scenario: readGolden(scenarioRel),
    scenarioFile: scenarioRel,
    stateDir,
    settings: testSettings({ agent: 'scripted', ...over }),
  });
  const socketPath = join(stateDir, 'agent.sock');
  const server = await serveAgentSocket(composed.world, socketPath, composed.tools);
  composed.world.start();
  const lines = (): EventLine[] => parseLog(readFileSync(join(stateDir, 'events.jsonl'), 'utf8'));
  return { composed, world: composed.world, socketPath, server, stateDir, lines };
}
