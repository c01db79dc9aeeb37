// `verify RUN_DIR`: checks a finished run directory against its digests.json and re-judges
// every scenario run offline (the judge's model calls answered from judge_trace.jsonl).
// One line per differing run, then a summary; exit 0 when everything agrees, 1 otherwise.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { UsageError } from '../errors.js';

export function register(program: Command): void {
  program
    .command('verify')
    .description('check a finished run directory against its digests and re-judge every run offline')
    .argument('<run-dir>', 'a finished run directory (the output dir, pass@k root included)')
    .option('--json', 'print JSON')
    .addHelpText('after', '\nExit codes: 0 every digest and verdict agrees, 1 something differs.\nExample:\n  $ gaia2-runner verify out/')
    .action(async (dir: string, f: { json?: boolean }) => {
      const root = resolve(dir);
      if (!existsSync(root)) throw new UsageError(`run directory does not exist: ${root}`);
      const { verifyRunDir } = await import('../../verify/index.js');
      const out = await verifyRunDir(root);
      if (f.json) process.stdout.write(`${JSON.stringify({ ok: out.issues.length === 0, ...out }, null, 2)}\n`);
      else {
        for (const i of out.issues) process.stdout.write(`DIFFERS ${i.run}: ${i.what}\n`);
        const bad = new Set(out.issues.map((i) => i.run)).size;
        process.stdout.write(
          out.issues.length === 0
            ? `verified: ${out.runs} run(s), every digest matches, ${out.rejudged} verdict(s) re-judged offline and unchanged\n`
            : `verify FAILED: ${out.issues.length} difference(s) in ${bad} of ${out.runs} run(s) (${out.rejudged} re-judged)\n`,
        );
      }
      process.exitCode = out.issues.length === 0 ? 0 : 1;
    });
}
