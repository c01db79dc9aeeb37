// A throwaway app world for unit tests: seed some apps, run commands at a fixed sim time with
// deterministic ids, read state files back.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { initWorld, runAction, runCli, type CommandResult } from '../../../agent-image/src/apps/index.js';
import { formatEventLine, pyDumps } from '../../../agent-image/src/contract/pyjson.js';
import { idSequence } from './golden.js';

export const CLOCK = '2024-10-15 07:00:00';
export const NOW = 1728975600;

export interface TestWorld {
  stateDir: string;
  ids: string[];
  run(...argv: string[]): Promise<CommandResult>;
  runEnv(eventId: string, ...argv: string[]): Promise<CommandResult>;
  action(app: string, fn: string, args: Record<string, unknown>, eventId?: string): Promise<CommandResult>;
  state(file: string): unknown;
  /** The single event line of a result, as text. */
  line(r: CommandResult): string;
}

/** apps: [name, class_name, app_state] triples; the scenario goes through initWorld as JSON text. */
export async function makeWorld(apps: Array<[string, string, unknown]>, simTime = CLOCK): Promise<TestWorld> {
  const stateDir = join(mkdtempSync(join(tmpdir(), 'gaia2-apps-')), 'state');
  await initWorld(pyDumps({ apps: apps.map(([name, class_name, app_state]) => ({ name, class_name, app_state })) }), stateDir);
  const seq = idSequence();
  const ctx = (eventId?: string) => ({ stateDir, simTime, ids: seq.next, eventId });
  return {
    stateDir,
    ids: seq.generated,
    run: (...argv) => runCli(argv, ctx()),
    runEnv: (eventId, ...argv) => runCli(argv, ctx(eventId)),
    action: (app, fn, args, eventId) => runAction(app, fn, args, ctx(eventId)),
    state: (file) => JSON.parse(readFileSync(join(stateDir, file), 'utf8')) as unknown,
    line: (r) => {
      if (r.events.length !== 1) throw new Error(`expected one event, got ${r.events.length}: ${r.stderr}`);
      return formatEventLine(r.events[0]!);
    },
  };
}

export const json = (r: CommandResult): unknown => JSON.parse(r.stdout);

/** Expect a handled error: exit 1, message on stderr, nothing on stdout, no event. */
export function expectFailure(r: CommandResult, code: number, stderr: string): void {
  if (r.exitCode !== code || r.stdout !== '' || r.events.length !== 0 || r.stderr !== stderr) {
    throw new Error(`expected exit ${code} with ${JSON.stringify(stderr)}, got exit ${r.exitCode} stdout=${JSON.stringify(r.stdout)} stderr=${JSON.stringify(r.stderr)} events=${r.events.length}`);
  }
}

export const usage = (bin: string, cmd: string, error: string): string =>
  `Usage: ${bin} ${cmd} [OPTIONS]\nTry '${bin} ${cmd} --help' for help.\n\nError: ${error}\n`;
