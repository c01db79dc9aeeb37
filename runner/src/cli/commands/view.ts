import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { UsageError } from '../errors.js';

export function register(program: Command): void {
  program
    .command('view')
    .description('write the static HTML viewer (index.html, trace.html per scenario run; pass@N dashboard at a pass@N root)')
    .requiredOption('--output-dir <dir>', 'a run directory (pass@1) or a pass@N root (run_1 … run_N)')
    .option('--full', 'rebuild every page, ignoring the incremental manifest')
    .addHelpText('after', '\nExample:\n  $ gaia2-runner view --output-dir out/\n  $ xdg-open out/index.html')
    .action(async (f: { outputDir: string; full?: boolean }) => {
      const dir = resolve(f.outputDir);
      if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`--output-dir is not a directory: ${dir}`);
      const { buildViewer } = await import('../../viewer/index.js');
      const r = await buildViewer(dir, { incremental: !f.full });
      process.stdout.write(`Viewer: ${r.pages} pages (${r.rebuilt} rewritten) → ${resolve(dir, 'index.html')}\n`);
    });
}
