// `gaia2-runner world init|exec`: the app world on the host, against a state dir, for tests
// and debugging. `exec` prints exactly what the app CLI prints inside the container and
// appends its events line to <state-dir>/events.jsonl.
import type { Command } from 'commander';
import type { exec, init } from './world-actions.js';

export function register(program: Command): void {
  const world = program.command('world').description('the simulated app world on the host, against a state directory (tests, debugging)');
  world
    .command('init')
    .description("seed app state files from a scenario's apps[] (like the image's gaia2-init)")
    .requiredOption('--scenario <file>', 'scenario JSON')
    .requiredOption('--state-dir <dir>', 'state directory to create or fill')
    .option('--fs-backing <dir>', 'folder holding the cloud-drive files named by real_path (default: $GAIA2_FS_BACKING_DIR)')
    .action(async (f: Parameters<typeof init>[0]) => (await import('./world-actions.js')).init(f));
  world
    .command('exec')
    .description('run one app command (calendar, emails, …) against a state directory at a simulated time')
    .requiredOption('--state-dir <dir>', 'state directory made by world init')
    .requiredOption('--time <time>', 'simulated UTC time, "YYYY-MM-DD HH:MM:SS"')
    .option('--event-id <id>', 'stamp the logged line with this event_id, as ENV actions are (default: $GAIA2_EVENT_ID)')
    .option('--fs-root <dir>', 'cloud-drive root (default: <state-dir>/filesystem)')
    .argument('<command...>', 'the app command line, after "--"')
    .addHelpText('after', '\nExample:\n  $ gaia2-runner world exec --state-dir /tmp/w --time "2024-10-15 07:00:00" -- calendar today-events')
    .action(async (argv: string[], f: Parameters<typeof exec>[1]) => (await import('./world-actions.js')).exec(argv, f));
}
