import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { ConfigError } from '../../config/errors.js';
import { writeReport } from '../../report/index.js';
import { readPhasesReport, renderPhasesMarkdown, rewritePhasesReport } from '../../phases/overall-report.js';

export function register(program: Command): void {
  program
    .command('report')
    .description('success rate ± SE, pass@k and pass^k per split, errors by kind → report.json + report.md')
    .requiredOption('--output-dir <dir>', 'a run directory (pass@1, a pass@N root, or a gaia2-run root)')
    .option('--json', 'print report.json instead of the text summary')
    .addHelpText('after', '\nExample:\n  $ gaia2-runner report --output-dir out/')
    .action(async (f: { outputDir: string; json?: boolean }) => {
      const dir = resolve(f.outputDir);
      if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new ConfigError(`--output-dir is not a directory: ${dir}`);
      const phases = readPhasesReport(dir);
      if (phases) {
        const r = await rewritePhasesReport(dir, phases, (l) => process.stderr.write(l + '\n'));
        process.stdout.write(f.json ? JSON.stringify(r, null, 2) + '\n' : renderPhasesMarkdown(r));
        return;
      }
      const { report, text } = await writeReport(dir, { warn: (l) => process.stderr.write(l + '\n') });
      if (report.overall.runs === 0) process.stderr.write(`No result.json found under ${dir}\n`);
      process.stdout.write(f.json ? JSON.stringify(report, null, 2) + '\n' : text);
    });
}
