// `gaia2-runner slurm` on a one-machine SLURM cluster started here from Debian's packages
// (scripts/setup-slurm.sh: munged, slurmctld, slurmd, a private SLURM_CONF): the array job runs
// one shard per task with the node's container engine (the oracle, 4 sample scenarios, 2
// shards), the aggregate job merges them once the array has ended. Submitted again, each task
// resumes its shard (--retry) and runs nothing twice.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_IMAGE } from '../../runner/src/image/index.js';
import { runCli } from './helpers/cli.js';
import { engineEnv, eachEngine, type E2eEngine } from './helpers/engines.js';

const root = join(import.meta.dirname, '..', '..');
const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
const setup = join(root, 'scripts/setup-slurm.sh');
const cluster = { dir: mkdtempSync(join(tmpdir(), 'gaia2-slurm-cluster-')), port: String(20_000 + Math.floor(Math.random() * 20_000)) };
const clusterEnv = { ...process.env, GAIA2_SLURM_DIR: cluster.dir, GAIA2_SLURM_PORT: cluster.port };


beforeAll(() => {
  const out = execFileSync('bash', [setup, 'start'], { env: clusterEnv, encoding: 'utf8' });
  const slurmConf = /SLURM_CONF=(\S+)/.exec(out)![1]!;
  // the CLI children (runCli) take this process's environment, as a user's shell gives it to sbatch
  process.env.SLURM_CONF = slurmConf;
}, 180_000);

afterAll(() => {
  delete process.env.SLURM_CONF;
  spawnSync('bash', [setup, 'stop'], { env: clusterEnv });
});

const slurmEnv = (e: E2eEngine) => engineEnv(e);

/** Waits until SLURM no longer lists the jobs; their final states (scontrol keeps ended jobs a while). */
async function untilEnded(ids: string[], env: NodeJS.ProcessEnv): Promise<Record<string, string>> {
  const deadline = Date.now() + 420_000;
  for (;;) {
    const q = spawnSync('squeue', ['-h', '-j', ids.join(','), '-o', '%i %T'], { env, encoding: 'utf8' });
    if (q.status === 0 && q.stdout.trim() === '') break;
    if (Date.now() > deadline) throw new Error(`SLURM jobs ${ids.join(',')} still queued or running: ${q.stdout}${q.stderr}`);
    await new Promise((r) => setTimeout(r, 2000));
  }
  const states: Record<string, string> = {};
  for (const id of ids) {
    const s = spawnSync('scontrol', ['show', 'job', '-o', id], { env, encoding: 'utf8' }).stdout;
    for (const line of s.trim().split('\n')) {
      const task = /ArrayTaskId=(\d+)/.exec(line)?.[1];
      states[task === undefined ? id : `${id}_${task}`] = `${/JobState=(\S+)/.exec(line)?.[1]} ${/ExitCode=(\S+)/.exec(line)?.[1]}`;
    }
  }
  return states;
}

const lines = (f: string) => readFileSync(f, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { scenario_id: string; status: string; started_at?: string });

describe.each(eachEngine())('gaia2-runner slurm on a one-machine SLURM cluster (%s)', (_kind, e2e) => {
  it('an array task per shard on the node’s engine, then the merge; submitted again, the shards resume and run nothing twice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gaia2-e2e-slurm-'));
    const config = join(dir, 'eval.toml');
    writeFileSync(config, `[target]\ndataset_root = "${join(root, 'examples/scenarios')}"\nsplits = "all"\nlimit = 4\n\n[agent]\nname = "oracle"\nimage = "${image}"\n\n[run]\noutput_dir = "out"\nconcurrency = 2\n`);
    const out = join(dir, 'out');
    const r = await runCli(e2e, ['slurm', config, '--num-shards', '2', '--time', '20', '--cpus-per-task', '1', '--submit']);
    expect(r.code, r.err).toBe(0);
    const ids = /Submitted: shards job (\d+), aggregate job (\d+)/.exec(r.out);
    expect(ids, r.out).not.toBeNull();
    const [shardsJob, aggregateJob] = [ids![1]!, ids![2]!];

    const states = await untilEnded([shardsJob, aggregateJob], slurmEnv(e2e));
    expect(states).toEqual({ [`${shardsJob}_0`]: 'COMPLETED 0:0', [`${shardsJob}_1`]: 'COMPLETED 0:0', [aggregateJob]: 'COMPLETED 0:0' });
    const shardLog = (i: number) => readFileSync(join(out, 'slurm', 'logs', `shard-${i}.log`), 'utf8');
    expect(shardLog(0)).toMatch(/gaia2 slurm task: shard 0 of 2 on /);
    const perShard = [0, 1].map((i) => lines(join(out, 'shards', `${i}-of-2`, 'results.jsonl')));
    expect(perShard.map((l) => l.length)).toEqual([2, 2]);
    const merged = lines(join(out, 'results.jsonl'));
    expect(merged.map((l) => l.scenario_id).sort()).toEqual(perShard.flat().map((l) => l.scenario_id).sort());
    expect(new Set(merged.map((l) => l.scenario_id)).size).toBe(4);
    expect(merged.every((l) => l.status === 'pass')).toBe(true);
    expect(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'))).toMatchObject({ overall: { runs: 4, passed: 4 } });
    expect(readFileSync(join(out, 'slurm', 'logs', 'aggregate.log'), 'utf8')).toMatch(/Merged 4 result\(s\) of 2 shard\(s\)/);

    // Submitted again (a requeue, a resubmission after a node failure): each task resumes its shard.
    const again = spawnSync('bash', [join(out, 'slurm', 'submit.sh')], { env: slurmEnv(e2e), encoding: 'utf8' });
    expect(again.status, again.stderr).toBe(0);
    const [, s2, a2] = /shards=(\S+) aggregate=(\S+)/.exec(again.stdout)!;
    expect(await untilEnded([s2!, a2!], slurmEnv(e2e))).toEqual({ [`${s2}_0`]: 'COMPLETED 0:0', [`${s2}_1`]: 'COMPLETED 0:0', [a2!]: 'COMPLETED 0:0' });
    for (const i of [0, 1]) expect(shardLog(i)).toMatch(/Retry: on/);
    const resumed = [0, 1].map((i) => lines(join(out, 'shards', `${i}-of-2`, 'results.jsonl')));
    expect(resumed).toEqual(perShard);
    expect(lines(join(out, 'results.jsonl')).length).toBe(4);
  }, 900_000);
});
