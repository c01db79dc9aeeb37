// `gaia2-runner slurm`'s flags and config → SlurmOptions. The config is resolved as every task
// will resolve it (with --shard-id 0 --num-shards N), so what a task would refuse is refused
// here, before anything is written or submitted.
import { existsSync, realpathSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { intFlag } from '../config/cli-flags.js';
import { loadRunConfig, withShards } from '../config/resolve-toml.js';
import { ConfigError } from '../plan/errors.js';
import { checkMem, checkSbatchOption, checkTime, checkWord, type SlurmOptions } from './options.js';

export interface SlurmFlags {
  numShards?: string;
  scriptDir?: string;
  jobName?: string;
  partition?: string;
  account?: string;
  time?: string;
  cpusPerTask?: string;
  mem?: string;
  maxParallel?: string;
  sbatchOption?: string[];
  setup?: string;
  podmanService?: boolean;
  runnerCommand?: string;
}

/** How this process was started (node and the CLI's entry), for the tasks to start it alike. */
export function thisRunner(): string[] {
  const entry = process.argv[1];
  if (!entry) throw new ConfigError('cannot tell how gaia2-runner was started: give --runner-command');
  return [process.execPath, realpathSync(entry)];
}

export function slurmOptions(configPath: string, f: SlurmFlags, env: Record<string, string | undefined>, o: { envFile: string | null }): SlurmOptions {
  const config = resolve(configPath);
  if (!existsSync(config)) throw new ConfigError(`config not found: ${config}`);
  // Unsharded, as the merge sees it; the file's own count (with or without a shard id) noted.
  let fileCount: number | undefined;
  const whole = loadRunConfig(config, env, (d) => {
    fileCount = d.run?.num_shards;
    return withShards(null, null)(d);
  });
  if (whole.target.kind === 'scenario') throw new ConfigError(`${config}: [target].scenario is one scenario; SLURM shards split a dataset target`);
  const numShards = intFlag(f.numShards, '--num-shards') ?? fileCount ?? null;
  if (numShards === null) throw new ConfigError(`how many shards? give --num-shards N (or [run].num_shards in ${config})`);
  const outputDir = whole.run.outputDir;
  if (!outputDir) throw new ConfigError(`${config}: [run].output_dir is required: the shards write <output_dir>/shards/<I>-of-<N>/ and the merge goes there`);
  // As a task resolves it: a config a task would refuse is refused now.
  loadRunConfig(config, env, withShards(0, numShards));
  const extra = (f.sbatchOption ?? []).map((x) => checkSbatchOption(x, '--sbatch-option'));
  const setup = f.setup ? resolve(f.setup) : null;
  if (setup && !existsSync(setup)) throw new ConfigError(`--setup: file not found: ${setup}`);
  const runner = f.runnerCommand ? f.runnerCommand.trim().split(/\s+/).filter(Boolean) : thisRunner();
  if (!runner.length) throw new ConfigError('--runner-command is empty');
  return {
    config,
    numShards,
    outputDir,
    scriptDir: resolve(f.scriptDir ?? join(outputDir, 'slurm')),
    jobName: checkWord(f.jobName, '--job-name') ?? `gaia2-${basename(config).replace(/\.toml$/i, '').replace(/[^A-Za-z0-9._-]/g, '_')}`,
    runner,
    envFile: o.envFile ? resolve(o.envFile) : null,
    resources: {
      partition: checkWord(f.partition, '--partition'),
      account: checkWord(f.account, '--account'),
      time: checkTime(f.time, '--time'),
      cpusPerTask: intFlag(f.cpusPerTask, '--cpus-per-task') ?? null,
      mem: checkMem(f.mem, '--mem'),
      extra,
    },
    maxParallel: intFlag(f.maxParallel, '--max-parallel') ?? null,
    setup,
    podmanService: Boolean(f.podmanService),
  };
}
