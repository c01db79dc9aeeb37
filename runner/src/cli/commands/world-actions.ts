// `world init` and `world exec`, loaded when one of them runs.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { initWorld, runCli } from '@gaia2/contract/lib/apps';
import { appendEventLines } from '@gaia2/contract/pyjson';
import { UsageError } from '../errors.js';

const SIM_TIME_RE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

export async function init(f: { scenario: string; stateDir: string; fsBacking?: string }): Promise<void> {
  const scenario = resolve(f.scenario);
  if (!existsSync(scenario)) throw new UsageError(`--scenario: file not found: ${scenario}`);
  const stateDir = resolve(f.stateDir);
  const backing = f.fsBacking ?? process.env.GAIA2_FS_BACKING_DIR;
  if (backing && !(existsSync(backing) && statSync(backing).isDirectory())) throw new UsageError(`--fs-backing: not a directory: ${backing}`);
  let result;
  try {
    result = await initWorld(readFileSync(scenario, 'utf8'), stateDir, { fsBackingDir: backing });
  } catch (e) {
    throw new UsageError(`${scenario}: ${(e as Error).message}`);
  }
  for (const w of result.warnings) process.stderr.write(w + '\n');
  process.stdout.write(`Initialized ${result.apps.length} app(s): ${result.apps.join(', ')}\nState directory: ${stateDir}\n`);
}

export async function exec(argv: string[], f: { stateDir: string; time: string; eventId?: string; fsRoot?: string }): Promise<void> {
  const stateDir = resolve(f.stateDir);
  if (!existsSync(stateDir)) throw new UsageError(`--state-dir: not found: ${stateDir} (run 'gaia2-runner world init' first)`);
  if (!SIM_TIME_RE.test(f.time)) throw new UsageError(`--time: expected "YYYY-MM-DD HH:MM:SS" (UTC), got ${JSON.stringify(f.time)}`);
  // Like the app CLIs, a GAIA2_EVENT_ID in the environment stamps the logged line (an empty one does not).
  const eventId = f.eventId ?? (process.env.GAIA2_EVENT_ID || undefined);
  const r = await runCli(argv, { stateDir, simTime: f.time, eventId, fsRoot: f.fsRoot ?? process.env.GAIA2_FS_ROOT });
  appendEventLines(join(stateDir, 'events.jsonl'), r.events);
  process.stdout.write(r.stdout);
  process.stderr.write(r.stderr);
  process.exitCode = r.exitCode;
}

