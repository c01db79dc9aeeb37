import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { ConfigError } from '../../plan/errors.js';
import { redact } from '../../secrets/redact.js';

interface ReportFlags {
  outputDir: string;
  json?: boolean;
  format?: 'text' | 'json' | 'csv' | 'md';
  prices?: string;
  errorsAsFailures?: boolean;
}

export function register(program: Command): void {
  program
    .command('report')
    .description('success rate ± SE [95% CI], pass@k and pass^k per split, errors by kind, tokens and cost → report.json + report.md')
    .requiredOption('--output-dir <dir>', 'a run directory (pass@1, a pass@N root, or a gaia2-run root)')
    .addOption(new Option('--format <format>', 'what to print on stdout').choices(['text', 'json', 'csv', 'md']).default('text'))
    .option('--json', 'same as --format json')
    .option('--errors-as-failures', "count runs that ended in errors as failed runs (default: the run's own choice, else leave them out of every denominator, as the reference does)")
    .option('--no-errors-as-failures', 'leave errors out of every denominator even when the run was started with --errors-as-failures')
    .option('--prices <file>', 'price table (JSON) whose entries replace the built-in prices per model (default: $GAIA2_PRICES)')
    .addHelpText('after', '\nExamples:\n  $ gaia2-runner report --output-dir out/\n  $ gaia2-runner report --output-dir out/ --format csv > results.csv')
    .action(async (f: ReportFlags) => {
      const dir = resolve(f.outputDir);
      if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new ConfigError(`--output-dir is not a directory: ${dir}`);
      const [{ renderCsv, renderMarkdown, writeReport }, { loadPriceTable }, { readPhasesReport, renderPhasesMarkdown, rewritePhasesReport }] = await Promise.all([
        import('../../report/index.js'),
        import('../../tokens/index.js'),
        import('../../phases/overall-report.js'),
      ]);
      const prices = loadPriceTable(f.prices);
      const options = { prices, ...(f.errorsAsFailures !== undefined ? { errorsAsFailures: f.errorsAsFailures } : {}) };
      // A gaia2-run root: one report per phase and the overall table (Markdown or JSON).
      const phases = readPhasesReport(dir);
      if (phases) {
        const r = await rewritePhasesReport(dir, phases, (l) => process.stderr.write(l + '\n'), options);
        process.stdout.write(redact(f.json || f.format === 'json' ? JSON.stringify(r, null, 2) + '\n' : renderPhasesMarkdown(r)));
        return;
      }
      const { report, text } = await writeReport(dir, { warn: (l) => process.stderr.write(l + '\n'), ...options });
      if (report.overall.runs === 0) process.stderr.write(`No result.json found under ${dir}\n`);
      const format = f.json ? 'json' : (f.format ?? 'text');
      const out = format === 'json' ? JSON.stringify(report, null, 2) + '\n' : format === 'csv' ? renderCsv(report) : format === 'md' ? renderMarkdown(report) : text;
      process.stdout.write(redact(out));
    });
}
