import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import { buildComparison } from '../../viewer/index.js';

export function register(program: Command): void {
  program
    .command('compare')
    .description('compare two runs of the same scenarios: verdict changes and first diverging action (HTML)')
    .argument('<run-a>', 'first run directory')
    .argument('<run-b>', 'second run directory')
    .option('-o, --output <file>', 'page to write', 'compare.html')
    .addHelpText('after', '\nExample:\n  $ gaia2-runner compare out/run_1 out/run_2 -o out/compare.html')
    .action(async (a: string, b: string, f: { output: string }) => {
      for (const d of [a, b]) {
        if (!existsSync(d) || !statSync(d).isDirectory()) throw new UsageError(`not a run directory: ${resolve(d)}`);
      }
      const out = buildComparison(a, b, f.output);
      process.stdout.write(`Comparison written to ${out}\n`);
    });
}
