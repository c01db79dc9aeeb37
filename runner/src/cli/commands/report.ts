import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { ConfigError } from '../../config/errors.js';
import { writeReport } from '../../report/index.js';
import { loadPriceTable } from '../../pricing/index.js';

export function register(program: Command): void {
  program
    .command('report')
    .description('success rate ± SE, pass@k and pass^k per split, errors by kind → report.json + report.md')
    .requiredOption('--output-dir <dir>', 'a run directory (pass@1 or a pass@N root)')
    .option('--json', 'print report.json instead of the text summary')
    .option('--prices <file>', 'price table (JSON) whose entries replace the built-in prices per model (default: $GAIA2_PRICES)')
    .addHelpText('after', '\nExample:\n  $ gaia2-runner report --output-dir out/')
    .action(async (f: { outputDir: string; json?: boolean; prices?: string }) => {
      const dir = resolve(f.outputDir);
      if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new ConfigError(`--output-dir is not a directory: ${dir}`);
      const prices = loadPriceTable(f.prices);
      const { report, text } = await writeReport(dir, { warn: (l) => process.stderr.write(l + '\n'), prices });
      if (report.overall.runs === 0) process.stderr.write(`No result.json found under ${dir}\n`);
      process.stdout.write(f.json ? JSON.stringify(report, null, 2) + '\n' : text);
    });
}
