// What `gaia2-runner slurm` is asked for, checked: the config and how many shards, where the
// scripts go, the sbatch resources each task asks for, how a task runs the runner and reaches
// its node's container engine. Values are checked here, so a bad one is refused before any
// file is written or any job is submitted.
import { ConfigError } from '../plan/errors.js';

export interface SlurmOptions {
  /** The TOML config, absolute (the compute nodes read it: a shared filesystem). */
  config: string;
  numShards: number;
  /** The config's [run].output_dir, absolute: the shards go under it, the merge into it. */
  outputDir: string;
  /** Where the scripts and the task logs are written. */
  scriptDir: string;
  /** A short name for the jobs (squeue's NAME). */
  jobName: string;
  /** The command that starts gaia2-runner on a compute node (words, quoted when written). */
  runner: string[];
  /** --env-file given to the runner on every node (absolute), if any. */
  envFile: string | null;
  resources: SlurmResources;
  /** At most this many shards at once (the array's %K); null: as many as the cluster gives. */
  maxParallel: number | null;
  /** A shell file sourced at the start of every task (module load, image load, proxies). */
  setup: string | null;
  /** Each task starts its own `podman system service` (rootless podman, no socket running). */
  podmanService: boolean;
}

export interface SlurmResources {
  partition: string | null;
  account: string | null;
  /** [days-]hours:minutes:seconds or minutes, as sbatch --time takes it. */
  time: string | null;
  cpusPerTask: number | null;
  /** sbatch --mem: a number with an optional K/M/G/T unit. */
  mem: string | null;
  /** Further `--option=value` lines, as given. */
  extra: string[];
}

/** sbatch's --time forms: M, M:S, H:M:S, D-H, D-H:M, D-H:M:S. */
const TIME = /^(\d+-)?\d+(:\d{1,2}){0,2}$/;
const MEM = /^\d+[KMGT]?$/i;
/** Values end up in `#SBATCH` lines: nothing that would end the line or quote out of it. */
const SAFE = /^[A-Za-z0-9._,:=/@+%-]+$/;

export function checkTime(v: string | undefined, flag: string): string | null {
  if (v === undefined) return null;
  if (!TIME.test(v)) throw new ConfigError(`${flag} must be a SLURM time limit: minutes, H:M:S or D-H:M:S (got ${JSON.stringify(v)})`);
  return v;
}

export function checkMem(v: string | undefined, flag: string): string | null {
  if (v === undefined) return null;
  if (!MEM.test(v)) throw new ConfigError(`${flag} must be a size sbatch takes, e.g. 8G or 16000M (got ${JSON.stringify(v)})`);
  return v;
}

export function checkWord(v: string | undefined, flag: string): string | null {
  if (v === undefined) return null;
  if (!SAFE.test(v)) throw new ConfigError(`${flag} holds characters a #SBATCH line cannot carry (got ${JSON.stringify(v)})`);
  return v;
}

/** A further sbatch option, `--name=value` or `--name`. */
export function checkSbatchOption(v: string, flag: string): string {
  if (!/^--[a-z][a-z-]*(=.+)?$/.test(v) || !SAFE.test(v)) throw new ConfigError(`${flag} takes one sbatch option as --name=value (got ${JSON.stringify(v)})`);
  const name = v.split('=')[0]!;
  if (OWN.has(name)) throw new ConfigError(`${flag} ${v}: ${name} is written by gaia2-runner slurm itself (${OWN_WHY})`);
  return v;
}

const OWN = new Set(['--array', '--output', '--error', '--job-name', '--dependency', '--parsable']);
const OWN_WHY = 'the array is one task per shard, logs go to the script directory, the merge depends on the array';
