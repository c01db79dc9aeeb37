import type { Command } from 'commander';
import type { SlurmFlags } from '../../slurm/plan.js';

const collect = (v: string, prev: string[] = []) => [...prev, v];

export function register(program: Command): void {
  program
    .command('slurm')
    .description('write SLURM batch scripts for a config: an array job with one task per shard, and the merge (aggregate) after it; see docs/slurm.md')
    .argument('<config>', 'TOML config with a dataset target and [run].output_dir (on a filesystem the compute nodes share)')
    .option('--num-shards <n>', 'how many shards (array tasks); default [run].num_shards')
    .option('--script-dir <dir>', 'where the scripts and the task logs go (default <output_dir>/slurm)')
    .option('--job-name <name>', 'the jobs’ name in squeue (default gaia2-<config name>)')
    .option('--partition <p>', 'sbatch --partition')
    .option('--account <a>', 'sbatch --account')
    .option('--time <limit>', 'sbatch --time per shard, e.g. 4:00:00')
    .option('--cpus-per-task <n>', 'sbatch --cpus-per-task for each shard')
    .option('--mem <size>', 'sbatch --mem for each shard, e.g. 16G')
    .option('--max-parallel <k>', 'at most K shards at once (the array’s %K)')
    .option('--sbatch-option <opt>', 'a further sbatch option for both jobs, as --name=value (repeatable)', collect)
    .option('--setup <file>', 'a shell file every task sources first (module load, podman load of the image, proxies)')
    .option('--podman-service', 'each task starts its own podman API service (rootless podman on the nodes, no socket running)')
    .option('--runner-command <cmd>', 'how a compute node starts gaia2-runner (default: this node and entry script)')
    .option('--submit', 'submit the jobs now (runs the written submit.sh: sbatch of the array, then of the merge after it)')
    .addHelpText(
      'after',
      '\nThe tasks get the environment of the shell that submits (sbatch’s default), provider keys included; no value of it is written.\n' +
        'Each task runs `run-config <config> --shard-id $SLURM_ARRAY_TASK_ID --num-shards N --retry` with its node’s container engine;\n' +
        'the merge runs `aggregate --output-dir <output_dir>` once every task has ended (afterany).\n' +
        'Examples:\n' +
        '  $ gaia2-runner slurm eval.toml --num-shards 16 --partition gpu --time 8:00:00 --mem 32G\n' +
        '  $ gaia2-runner slurm eval.toml --num-shards 4 --submit',
    )
    .action(async (config: string, f: SlurmFlags & { submit?: boolean }, c: Command) => {
      const [{ slurmOptions }, { submitSlurm, writeSlurmScripts }] = await Promise.all([import('../../slurm/plan.js'), import('../../slurm/write.js')]);
      const envFile = (c.optsWithGlobals() as { envFile?: string }).envFile ?? null;
      const o = slurmOptions(config, f, process.env, { envFile });
      const w = await writeSlurmScripts(o);
      process.stdout.write(
        `Wrote ${w.shards} (${o.numShards} array task${o.numShards === 1 ? '' : 's'}), ${w.aggregate} and ${w.submit}; task logs go to ${w.logs}/.\n` +
          `Results: ${o.outputDir}/shards/<I>-of-${o.numShards}/, merged into ${o.outputDir}/ by the aggregate job.\n`,
      );
      if (!f.submit) {
        process.stdout.write(`Submit with: bash ${w.submit}\n`);
        return;
      }
      const jobs = await submitSlurm(w.submit);
      process.stdout.write(`Submitted: shards job ${jobs.shards}, aggregate job ${jobs.aggregate} (after every shard). Follow with: squeue -j ${jobs.shards},${jobs.aggregate}\n`);
    });
}
