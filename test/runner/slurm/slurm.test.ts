// `gaia2-runner slurm`: the options checked before anything is written, and the scripts run for
// real by bash — the shard task with a stand-in runner that records its arguments (the SLURM
// variables set as sbatch sets them), submit.sh with stand-in sbatch that records its calls.
// The one-machine cluster run is test/e2e/slurm.test.ts.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../runner/src/plan/errors.js';
import { slurmOptions } from '../../../runner/src/slurm/plan.js';
import { shellWord } from '../../../runner/src/slurm/sbatch.js';
import { submitSlurm, writeSlurmScripts } from '../../../runner/src/slurm/write.js';

const root = join(import.meta.dirname, '..', '..', '..');

function config(body: string): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'gaia2-slurm-'));
  const file = join(dir, 'eval run.toml');
  writeFileSync(file, body);
  return { dir, file };
}

const dataset = `[target]\ndataset_root = "${join(root, 'examples/scenarios')}"\nsplits = "all"\n\n[agent]\nname = "oracle"\n`;

/** A stand-in for gaia2-runner: writes its arguments, one per line, to $ARGS_OUT. */
function recorder(dir: string): string {
  const f = join(dir, 'fake-runner.sh');
  writeFileSync(f, '#!/usr/bin/env bash\nprintf "%s\\n" "$@" > "$ARGS_OUT"\n');
  chmodSync(f, 0o755);
  return f;
}

describe('gaia2-runner slurm: options', () => {
  it('takes the shard count from the flag or [run].num_shards, the output directory from the config, absolute', () => {
    const { dir, file } = config(`${dataset}\n[run]\noutput_dir = "out"\nnum_shards = 3\n`);
    const fromFile = slurmOptions(file, {}, {}, { envFile: null });
    expect(fromFile).toMatchObject({ numShards: 3, outputDir: join(dir, 'out'), scriptDir: join(dir, 'out', 'slurm'), config: file, jobName: 'gaia2-eval_run' });
    expect(slurmOptions(file, { numShards: '5', scriptDir: join(dir, 's') }, {}, { envFile: '.env' })).toMatchObject({ numShards: 5, scriptDir: join(dir, 's'), envFile: join(process.cwd(), '.env') });
    // the default runner is how this process was started
    expect(fromFile.runner[0]).toBe(process.execPath);
  });

  it('refuses, naming the flag or the file, what a task would refuse or sbatch could not take', () => {
    const noOut = config(dataset).file;
    expect(() => slurmOptions(noOut, { numShards: '2' }, {}, { envFile: null })).toThrow(/\[run\]\.output_dir is required/);
    const ok = config(`${dataset}\n[run]\noutput_dir = "out"\n`).file;
    expect(() => slurmOptions(ok, {}, {}, { envFile: null })).toThrow(/give --num-shards N \(or \[run\]\.num_shards in .*eval run\.toml\)/);
    expect(() => slurmOptions(ok, { numShards: '0' }, {}, { envFile: null })).toThrow(/--num-shards must be >= 1/);
    expect(() => slurmOptions(ok, { numShards: '2', time: '1 day' }, {}, { envFile: null })).toThrow(/--time must be a SLURM time limit/);
    expect(() => slurmOptions(ok, { numShards: '2', mem: '16 GB' }, {}, { envFile: null })).toThrow(/--mem must be a size/);
    expect(() => slurmOptions(ok, { numShards: '2', partition: 'gpu\n#SBATCH --x' }, {}, { envFile: null })).toThrow(/--partition holds characters/);
    expect(() => slurmOptions(ok, { numShards: '2', sbatchOption: ['--array=0-9'] }, {}, { envFile: null })).toThrow(/--array is written by gaia2-runner slurm itself/);
    expect(() => slurmOptions(ok, { numShards: '2', sbatchOption: ['qos=high'] }, {}, { envFile: null })).toThrow(/--sbatch-option takes one sbatch option as --name=value/);
    expect(() => slurmOptions(ok, { numShards: '2', setup: '/nonexistent/setup.sh' }, {}, { envFile: null })).toThrow(/--setup: file not found: \/nonexistent\/setup\.sh/);
    expect(() => slurmOptions('/nonexistent/eval.toml', { numShards: '2' }, {}, { envFile: null })).toThrow(ConfigError);
    const scenario = config(`[target]\nscenario = "${join(root, 'examples/scenarios/search')}"\n[agent]\nname = "oracle"\n[run]\noutput_dir = "out"\n`).file;
    expect(() => slurmOptions(scenario, { numShards: '2' }, {}, { envFile: null })).toThrow(/one scenario; SLURM shards split a dataset target/);
  });
});

describe('gaia2-runner slurm: the scripts, run by bash', () => {
  it('a shard task runs run-config on its own shard; run again, it resumes the shard with --retry', async () => {
    const { dir, file } = config(`${dataset}\n[run]\noutput_dir = "results dir"\n`);
    const setup = join(dir, 'setup.sh');
    writeFileSync(setup, 'export FROM_SETUP=yes\n');
    const o = slurmOptions(file, { numShards: '4', partition: 'batch', time: '2:00:00', mem: '8G', cpusPerTask: '2', maxParallel: '2', sbatchOption: ['--qos=long'], setup, runnerCommand: recorder(dir) }, {}, { envFile: join(dir, 'keys.env') });
    const w = await writeSlurmScripts(o);
    const text = readFileSync(w.shards, 'utf8');
    for (const l of ['--array=0-3%2', '--partition=batch', '--time=2:00:00', '--mem=8G', '--cpus-per-task=2', '--qos=long', `--output=${join(dir, 'results dir', 'slurm', 'logs', 'shard-%a.log')}`])
      expect(text).toContain(`#SBATCH ${l}`);
    const argsOut = join(dir, 'args');
    const task = (id: string) => {
      execFileSync('bash', [w.shards], { env: { PATH: process.env.PATH, SLURM_ARRAY_TASK_ID: id, SLURM_JOB_ID: '42', ARGS_OUT: argsOut } });
      return readFileSync(argsOut, 'utf8').trim().split('\n');
    };
    expect(task('2')).toEqual(['--env-file', join(dir, 'keys.env'), 'run-config', file, '--shard-id', '2', '--num-shards', '4']);
    mkdirSync(join(dir, 'results dir', 'shards', '2-of-4'), { recursive: true });
    expect(task('2')).toEqual(['--env-file', join(dir, 'keys.env'), 'run-config', file, '--shard-id', '2', '--num-shards', '4', '--retry']);
    expect(task('3')).not.toContain('--retry');
    // outside sbatch it says what it is
    expect(() => execFileSync('bash', [w.shards], { env: { PATH: process.env.PATH }, stdio: 'pipe' })).toThrow(/run this script with sbatch/);
    // the merge: aggregate of the whole output directory, no per-task CPUs
    const agg = readFileSync(w.aggregate, 'utf8');
    expect(agg).not.toContain('--cpus-per-task');
    execFileSync('bash', [w.aggregate], { env: { PATH: process.env.PATH, ARGS_OUT: argsOut } });
    expect(readFileSync(argsOut, 'utf8').trim().split('\n')).toEqual(['--env-file', join(dir, 'keys.env'), 'aggregate', '--output-dir', join(dir, 'results dir')]);
  });

  it('submit.sh submits the array, then the merge depending on all of it (afterany); its job ids come back', async () => {
    const { dir, file } = config(`${dataset}\n[run]\noutput_dir = "out"\n`);
    const o = slurmOptions(file, { numShards: '2', runnerCommand: recorder(dir) }, {}, { envFile: null });
    const w = await writeSlurmScripts(o);
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    // a stand-in sbatch: records its arguments, answers --parsable as SLURM does ("<id>;<cluster>")
    writeFileSync(join(bin, 'sbatch'), '#!/usr/bin/env bash\necho "$*" >> "$CALLS"\nn=$(wc -l < "$CALLS")\necho "$((100 + n));gaia2"\n');
    chmodSync(join(bin, 'sbatch'), 0o755);
    const calls = join(dir, 'calls');
    const jobs = await submitSlurm(w.submit, { PATH: `${bin}:${process.env.PATH}`, CALLS: calls });
    expect(jobs).toEqual({ shards: '101', aggregate: '102' });
    expect(readFileSync(calls, 'utf8').trim().split('\n')).toEqual([`--parsable ${w.shards}`, `--parsable --dependency=afterany:101 ${w.aggregate}`]);
    // sbatch refusing: its message comes back
    writeFileSync(join(bin, 'sbatch'), '#!/usr/bin/env bash\necho "sbatch: error: invalid partition specified: gpu" >&2\nexit 1\n');
    await expect(submitSlurm(w.submit, { PATH: `${bin}:${process.env.PATH}`, CALLS: calls })).rejects.toThrow(/submit\.sh failed: sbatch: error: invalid partition specified: gpu/);
  });

  it('every script, with every option, passes ShellCheck (installed by CI\'s static stage, scripts/lint-shell.sh)', async () => {
    const { dir, file } = config(`${dataset}\n[run]\noutput_dir = "it's out"\n`);
    const setup = join(dir, 'setup.sh');
    writeFileSync(setup, 'true\n');
    const o = slurmOptions(file, { numShards: '3', setup, podmanService: true, account: 'lab', sbatchOption: ['--exclusive'] }, {}, { envFile: join(dir, 'a b.env') });
    const w = await writeSlurmScripts(o);
    expect(readFileSync(w.shards, 'utf8')).toContain('podman system service --time=0');
    const r = spawnSync('shellcheck', ['-s', 'bash', w.shards, w.aggregate, w.submit], { encoding: 'utf8' });
    expect(r.error).toBeUndefined();
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('quotes what a shell would split', () => {
    expect(shellWord('/a/b.toml')).toBe('/a/b.toml');
    expect(shellWord("/my runs/it's.toml")).toBe(`'/my runs/it'\\''s.toml'`);
    expect(execFileSync('bash', ['-c', `printf %s ${shellWord("a b'c$d")}`]).toString()).toBe("a b'c$d");
  });
});
