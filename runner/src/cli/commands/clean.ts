import type { Command } from 'commander';
import { connectEngine, LABELS } from '../../engine/index.js';

export function register(program: Command): void {
  program
    .command('clean')
    .description('remove leftover gaia2 containers (all, or one run id) found by label')
    .option('--run-id <id>', 'only the containers of this run (see run_id in run_config.json)')
    .option('-n, --dry-run', 'list, do not remove')
    .addHelpText('after', '\nExample:\n  $ gaia2-runner clean')
    .action(async (f: { runId?: string; dryRun?: boolean }) => {
      const engine = await connectEngine();
      try {
        const labels: Record<string, string> = f.runId ? { [LABELS.runId]: f.runId } : { [LABELS.managed]: '1' };
        const found = await engine.listByLabels(labels);
        for (const c of found) {
          process.stdout.write(`${f.dryRun ? 'would remove' : 'removing'} ${c.name} (${c.state}, run ${c.labels[LABELS.runId] ?? '?'}, scenario ${c.labels[LABELS.scenarioId] ?? '?'})\n`);
          if (!f.dryRun) await engine.remove(c.id);
        }
        process.stdout.write(found.length ? `${f.dryRun ? 'found' : 'removed'} ${found.length} container(s)\n` : 'no leftover containers\n');
      } finally {
        await engine.close();
      }
    });
}
