import type { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('clean')
    .description('remove leftover gaia2 containers (all, or one run id) found by label')
    .option('--run-id <id>', 'only the containers of this run (see run_id in run_config.json)')
    .option('-c, --config <file>', "clean the backend this TOML config uses (e.g. its [kubernetes] namespace)")
    .option('-n, --dry-run', 'list, do not remove')
    .addHelpText('after', '\nExamples:\n  $ gaia2-runner clean\n  $ gaia2-runner clean --config cluster.toml --run-id g2-20250101T000000-abc123')
    .action(async (f: { runId?: string; dryRun?: boolean; config?: string }) => {
      const [{ loadRunConfig }, { connectBackend }, { LABELS }] = await Promise.all([
        import('../../config/resolve-toml.js'),
        import('../../engine/connect.js'),
        import('../../engine/labels.js'),
      ]);
      const engine = await connectBackend(f.config ? loadRunConfig(f.config, process.env).run.backend : { kind: 'local' });
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
