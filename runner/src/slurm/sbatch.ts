// The scripts `gaia2-runner slurm` writes: an array job with one task per shard (each runs the
// config's shard on its node's own container engine, resuming what an earlier attempt left),
// the merge job (`aggregate`), and submit.sh, which submits both with the merge depending on the
// whole array (afterany: it runs even when a shard failed, and names what is missing). No value
// of the environment is written: sbatch passes the submitter's environment (provider keys
// included) to the tasks, as it does by default.
import { join } from 'node:path';
import { SHARDS_DIR } from '../plan/shard.js';
import type { SlurmOptions } from './options.js';

export const SHARDS_SCRIPT = 'shards.sbatch';
export const AGGREGATE_SCRIPT = 'aggregate.sbatch';
export const SUBMIT_SCRIPT = 'submit.sh';
export const LOG_DIR = 'logs';

/** A word for a POSIX shell, single-quoted unless plainly safe. */
export function shellWord(s: string): string {
  return /^[A-Za-z0-9._/=:@%+,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

const words = (xs: readonly string[]) => xs.map(shellWord).join(' ');

function resourceLines(o: SlurmOptions): string[] {
  const r = o.resources;
  return [
    ...(r.partition ? [`--partition=${r.partition}`] : []),
    ...(r.account ? [`--account=${r.account}`] : []),
    ...(r.time ? [`--time=${r.time}`] : []),
    ...(r.cpusPerTask ? [`--cpus-per-task=${r.cpusPerTask}`] : []),
    ...(r.mem ? [`--mem=${r.mem}`] : []),
    ...r.extra,
  ].map((l) => `#SBATCH ${l}`);
}

function runnerWords(o: SlurmOptions): string {
  return words([...o.runner, ...(o.envFile ? ['--env-file', o.envFile] : [])]);
}

function header(o: SlurmOptions, what: string): string[] {
  return ['#!/usr/bin/env bash', `# ${what}`, `# Written by \`gaia2-runner slurm\` for ${o.config}; submit with ${join(o.scriptDir, SUBMIT_SCRIPT)}.`];
}

/** Lines that give a task a private podman API service and point the runner at it. */
function podmanServiceLines(): string[] {
  return [
    '# The node has rootless podman and no API socket running: a service of this task\'s own.',
    'sock="${TMPDIR:-/tmp}/gaia2-podman-${SLURM_JOB_ID:-0}-${SLURM_ARRAY_TASK_ID:-0}.sock"',
    'podman system service --time=0 "unix://$sock" &',
    'svc=$!',
    "trap 'kill \"$svc\" 2>/dev/null || true' EXIT",
    'for _ in $(seq 100); do [[ -S $sock ]] && break; sleep 0.1; done',
    '[[ -S $sock ]] || { echo "gaia2 slurm task: podman system service did not start ($sock)" >&2; exit 1; }',
    'export DOCKER_HOST="unix://$sock"',
  ];
}

export function shardsScript(o: SlurmOptions): string {
  const array = `0-${o.numShards - 1}${o.maxParallel ? `%${o.maxParallel}` : ''}`;
  const run = `${runnerWords(o)} run-config ${shellWord(o.config)} --shard-id "$shard" --num-shards ${o.numShards} "\${retry[@]}"`;
  const shardDir = `${shellWord(join(o.outputDir, SHARDS_DIR))}/"$shard-of-${o.numShards}"`;
  return [
    ...header(o, `gaia2-runner: the ${o.numShards} shards of a run, one SLURM array task per shard.`),
    `#SBATCH --job-name=${o.jobName}`,
    `#SBATCH --array=${array}`,
    `#SBATCH --output=${join(o.scriptDir, LOG_DIR, 'shard-%a.log')}`,
    ...resourceLines(o),
    'set -euo pipefail',
    'shard=${SLURM_ARRAY_TASK_ID:?run this script with sbatch: it is an array job, one task per shard}',
    `echo "gaia2 slurm task: shard $shard of ${o.numShards} on $(hostname)"`,
    ...(o.setup ? [`# shellcheck source=/dev/null`, `source ${shellWord(o.setup)}`] : []),
    ...(o.podmanService ? podmanServiceLines() : []),
    '# A task run again (requeued, resubmitted) resumes its shard: its judged runs are kept.',
    `retry=(); [[ -d ${shardDir} ]] && retry=(--retry)`,
    o.podmanService ? run : `exec ${run}`,
    '',
  ].join('\n');
}

export function aggregateScript(o: SlurmOptions): string {
  return [
    ...header(o, 'gaia2-runner: merges the shards of a run once the array job has ended.'),
    `#SBATCH --job-name=${o.jobName}-aggregate`,
    `#SBATCH --output=${join(o.scriptDir, LOG_DIR, 'aggregate.log')}`,
    ...resourceLines({ ...o, resources: { ...o.resources, cpusPerTask: null } }),
    'set -euo pipefail',
    ...(o.setup ? [`# shellcheck source=/dev/null`, `source ${shellWord(o.setup)}`] : []),
    `exec ${runnerWords(o)} aggregate --output-dir ${shellWord(o.outputDir)}`,
    '',
  ].join('\n');
}

export function submitScript(o: SlurmOptions): string {
  const dir = shellWord(o.scriptDir);
  return [
    '#!/usr/bin/env bash',
    `# Submits the shards of ${o.config} (one array task each) and their merge, which waits for all of them.`,
    '# Prints the two job ids as `shards=<id> aggregate=<id>`.',
    'set -euo pipefail',
    `shards=$(sbatch --parsable ${dir}/${SHARDS_SCRIPT})`,
    'shards=${shards%%;*}',
    `aggregate=$(sbatch --parsable --dependency=afterany:"$shards" ${dir}/${AGGREGATE_SCRIPT})`,
    'aggregate=${aggregate%%;*}',
    'echo "shards=$shards aggregate=$aggregate"',
    '',
  ].join('\n');
}
