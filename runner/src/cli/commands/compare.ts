import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import { redact } from '../../secrets/redact.js';

export function register(program: Command): void {
  program
    .command('compare')
    .description('compare runs of the same scenarios with the first: per-split deltas, paired statistics (McNemar, bootstrap), verdict flips → .json, .md, .html')
    .argument('<run-a>', 'baseline run directory (pass@1 run or pass@N root)')
    .argument('<run-b>', 'run directory to compare with it')
    .argument('[more...]', 'more run directories, each compared with the baseline')
    .option('-o, --output <file>', 'the side-by-side page of the first two runs; the statistics go beside it as <name>.stats.json/.md/.html', 'compare.html')
    .addHelpText('after', '\nExample:\n  $ gaia2-runner compare runs/baseline runs/new-prompt -o out/compare.html')
    .action(async (a: string, b: string, more: string[], f: { output: string }) => {
      const dirs = [a, b, ...more];
      for (const d of dirs) {
        if (!existsSync(d) || !statSync(d).isDirectory()) throw new UsageError(`not a run directory: ${resolve(d)}`);
      }
      const [{ buildComparison }, { buildCompare, renderCompareHtml, renderCompareMarkdown }, { writeFileAtomic }] = await Promise.all([
        import('../../viewer/index.js'),
        import('../../compare/index.js'),
        import('../../fsutil/atomic.js'),
      ]);
      const page = buildComparison(a, b, f.output);
      const cmp = buildCompare(dirs, (l) => process.stderr.write(l + '\n'));
      const stem = resolve(f.output).replace(/\.html?$/i, '') + '.stats';
      await writeFileAtomic(`${stem}.json`, redact(JSON.stringify(cmp, null, 2)) + '\n');
      const md = redact(renderCompareMarkdown(cmp));
      await writeFileAtomic(`${stem}.md`, md);
      await writeFileAtomic(`${stem}.html`, redact(renderCompareHtml(cmp)));
      process.stdout.write(md);
      process.stdout.write(`Comparison written to ${page}; statistics in ${stem}.json, ${stem}.md and ${stem}.html\n`);
    });
}
