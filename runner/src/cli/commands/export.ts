import type { Command } from 'commander';
import { Option } from 'commander';
import { join, resolve } from 'node:path';

interface ExportFlags {
  format: 'atif';
  output?: string;
}

export function register(program: Command): void {
  program
    .command('export')
    .description("write every scenario run's trajectory of a run directory in another format: atif = Harbor's Agent Trajectory Interchange Format, one trajectory.json per scenario run")
    .argument('<run-dir>', 'a run directory (pass@1, a pass@N root, a gaia2-run root)')
    .addOption(new Option('--format <format>', 'the format to write').choices(['atif']).makeOptionMandatory())
    .option('--output <dir>', 'where to write (default: <run-dir>/atif); each scenario run at <dir>/<its path in the run>/trajectory.json')
    .addHelpText('after', '\nExamples:\n  $ gaia2-runner export runs/claude --format atif\n  $ gaia2-runner export runs/gaia2 --format atif --output atif/')
    .action(async (runDir: string, f: ExportFlags) => {
      const { exportAtif } = await import('../../atif/index.js');
      const dir = resolve(runDir);
      const out = resolve(f.output ?? join(dir, 'atif'));
      const r = await exportAtif(dir, out);
      for (const s of r.skipped) process.stderr.write(`${s.scenario}: skipped, ${s.reason}\n`);
      const n = (k: number, one: string, many: string): string => `${k} ${k === 1 ? one : many}`;
      const skipped = r.skipped.length ? ` (${n(r.skipped.length, 'scenario run', 'scenario runs')} without a model call skipped)` : '';
      process.stdout.write(`Wrote ${n(r.written.length, 'ATIF trajectory', 'ATIF trajectories')} to ${out}${skipped}\n`);
    });
}
