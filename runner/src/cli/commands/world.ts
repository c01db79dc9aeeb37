// `gaia2-runner world init|exec`: the app world on the host, against a state dir, for tests
// and debugging. `exec` prints exactly what the app CLI prints inside the container and
// appends its events line to <state-dir>/events.jsonl.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { initWorld, runCli } from '../../../../agent-image/src/apps/index.js';
import { appendEventLines } from '../../../../agent-image/src/contract/pyjson.js';
import { UsageError } from '../errors.js';

const SIM_TIME_RE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

async function init(f: { scenario: string; stateDir: string; fsBacking?: string }): Promise<void> {
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

async function exec(argv: string[], f: { stateDir: string; time: string; eventId?: string; fsRoot?: string }): Promise<void> {
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

export function register(program: Command): void {
  const world = program.command('world').description('the simulated app world on the host, against a state directory (tests, debugging)');
  world
    .command('init')
    .description("seed app state files from a scenario's apps[] (like the image's gaia2-init)")
    .requiredOption('--scenario <file>', 'scenario JSON')
    .requiredOption('--state-dir <dir>', 'state directory to create or fill')
    .option('--fs-backing <dir>', 'folder holding the cloud-drive files named by real_path (default: $GAIA2_FS_BACKING_DIR)')
    .action(init);
  world
    .command('exec')
    .description('run one app command (calendar, emails, …) against a state directory at a simulated time')
    .requiredOption('--state-dir <dir>', 'state directory made by world init')
    .requiredOption('--time <time>', 'simulated UTC time, "YYYY-MM-DD HH:MM:SS"')
    .option('--event-id <id>', 'stamp the logged line with this event_id, as ENV actions are (default: $GAIA2_EVENT_ID)')
    .option('--fs-root <dir>', 'cloud-drive root (default: <state-dir>/filesystem)')
    .argument('<command...>', 'the app command line, after "--"')
    .addHelpText('after', '\nExample:\n  $ gaia2-runner world exec --state-dir /tmp/w --time "2024-10-15 07:00:00" -- calendar today-events')
    .action(exec);
}
