// A throw-away app world for unit tests of rent-a-flat, shopping, cabs, city and cloud-drive:
// seeded like a scenario, commands run in-process at a fixed sim time, outputs parsed.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { initWorld, runCli, runAction } from '../../../agent-image/src/apps/index.js';
import type { CommandResult } from '../../../agent-image/src/apps/index.js';
import { formatEventLine, parsePyJson } from '../../../agent-image/src/contract/pyjson.js';
import { idSequence } from './golden.js';

export interface Ran extends CommandResult {
  /** stdout parsed (null when empty or not JSON). */
  json: unknown;
  /** The logged lines as their events.jsonl text. */
  lines: string[];
}

export interface TestWorld {
  stateDir: string;
  fsRoot: string;
  simTime: string;
  ids: string[];
  run(argv: string[], opts?: { simTime?: string; eventId?: string }): Promise<Ran>;
  action(app: string, fn: string, args: Record<string, unknown>): Promise<Ran>;
  /** An app's state file, parsed with JSON.parse (floats as plain numbers). */
  state(file: string): Record<string, unknown>;
}

const ran = (r: CommandResult): Ran => {
  let json: unknown = null;
  try {
    json = r.stdout ? JSON.parse(r.stdout) : null;
  } catch {
    json = null;
  }
  return { ...r, json, lines: r.events.map(formatEventLine) };
};

/**
 * `apps`: scenario app entries; app_state given as JSON text keeps float literals (as a
 * scenario file would). `backing`: fs backing files for cloud-drive real_path nodes.
 */
export async function testWorld(
  apps: Array<{ name: string; class_name?: string; app_state: unknown }>,
  opts: { simTime?: string; backing?: Record<string, string> } = {},
): Promise<TestWorld> {
  const root = mkdtempSync(join(tmpdir(), 'gaia2-rest-'));
  const stateDir = join(root, 'state');
  const backing = join(root, 'backing');
  for (const [rel, content] of Object.entries(opts.backing ?? {})) {
    mkdirSync(dirname(join(backing, rel)), { recursive: true });
    writeFileSync(join(backing, rel), content);
  }
  const entries = apps.map((a) => ({
    ...a,
    app_state: typeof a.app_state === 'string' ? parsePyJson(a.app_state) : a.app_state,
  }));
  await initWorld({ apps: entries }, stateDir, { fsBackingDir: backing });
  const simTime = opts.simTime ?? '2024-10-15 07:00:00';
  const ids = idSequence();
  return {
    stateDir,
    fsRoot: join(stateDir, 'filesystem'),
    simTime,
    ids: ids.generated,
    run: async (argv, o = {}) =>
      ran(await runCli(argv, { stateDir, simTime: o.simTime ?? simTime, eventId: o.eventId, ids: ids.next })),
    action: async (app, fn, args) => ran(await runAction(app, fn, args, { stateDir, simTime, ids: ids.next })),
    state: (file) => JSON.parse(readFileSync(join(stateDir, file), 'utf8')) as Record<string, unknown>,
  };
}

/** Asserts-free helper: the stderr of a failed command without its trailing newline. */
export const errText = (r: Ran): string => r.stderr.trimEnd();
