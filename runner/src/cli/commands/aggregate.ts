import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { UsageError } from '../errors.js';

export function register(program: Command): void {
  program
    .command('aggregate')
    .description('merge the shards of one run (<output-dir>/shards/<I>-of-<N>/) into results.jsonl, report.json/md, run_config.json and index.html at <output-dir>')
    .requiredOption('--output-dir <dir>', 'the directory the shards were run into (--output-dir of each `run-dataset --shard-id I --num-shards N`)')
    .addHelpText(
      'after',
      '\nEvery shard 0..N-1 must be there with the same agent, model and dataset, and no scenario may be in two shards;\n' +
        'the shard folders are only read. Exit: 0 merged, 3 merged but a shard is incomplete (named), 2 refused (nothing written).\n' +
        'Example (two machines, then one merge):\n' +
        '  $ gaia2-runner run-dataset -d examples/scenarios --agent oracle --shard-id 0 --num-shards 2 --output-dir out/\n' +
        '  $ gaia2-runner run-dataset -d examples/scenarios --agent oracle --shard-id 1 --num-shards 2 --output-dir out/\n' +
        '  $ gaia2-runner aggregate --output-dir out/',
    )
    .action(async (f: { outputDir: string }) => {
      const dir = resolve(f.outputDir);
      if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`--output-dir is not a directory: ${dir}`);
      const [{ aggregateShards }, { redact }] = await Promise.all([import('../../shards/index.js'), import('../../secrets/redact.js')]);
      const r = await aggregateShards(dir, { warn: (l) => process.stderr.write(redact(l) + '\n') });
      process.stdout.write(r.reportText);
      process.stdout.write(`Merged ${r.results} result(s) of ${r.numShards} shard(s): ${dir}/results.jsonl, report: ${dir}/report.md${r.viewer ? `, viewer: ${dir}/index.html` : ''}\n`);
      if (r.incomplete.length) {
        process.stderr.write(`Incomplete shard(s): ${r.incomplete.map((x) => `${x.rel} (${x.results}/${x.planned})`).join(', ')}; the merged report covers what they hold.\n`);
        process.exitCode = 3;
      }
    });
}
