// Writes the scripts of a SLURM run and, when asked, submits them through submit.sh (the same
// two sbatch calls a user would run), returning the job ids sbatch gave.
import { execFile } from 'node:child_process';
import { chmod, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { writeFileAtomic } from '../fsutil/atomic.js';
import type { SlurmOptions } from './options.js';
import { AGGREGATE_SCRIPT, aggregateScript, LOG_DIR, SHARDS_SCRIPT, shardsScript, SUBMIT_SCRIPT, submitScript } from './sbatch.js';

export interface WrittenScripts {
  shards: string;
  aggregate: string;
  submit: string;
  logs: string;
}

export async function writeSlurmScripts(o: SlurmOptions): Promise<WrittenScripts> {
  const logs = join(o.scriptDir, LOG_DIR);
  // sbatch does not create the directory of --output: a task whose log cannot be opened fails unseen.
  await mkdir(logs, { recursive: true });
  const files = { shards: join(o.scriptDir, SHARDS_SCRIPT), aggregate: join(o.scriptDir, AGGREGATE_SCRIPT), submit: join(o.scriptDir, SUBMIT_SCRIPT) };
  await writeFileAtomic(files.shards, shardsScript(o));
  await writeFileAtomic(files.aggregate, aggregateScript(o));
  await writeFileAtomic(files.submit, submitScript(o));
  for (const f of Object.values(files)) await chmod(f, 0o755);
  return { ...files, logs };
}

export interface SubmittedJobs {
  shards: string;
  aggregate: string;
}

/** Runs submit.sh; its `shards=<id> aggregate=<id>` line, or an error with what sbatch said. */
export async function submitSlurm(submit: string, env: NodeJS.ProcessEnv = process.env): Promise<SubmittedJobs> {
  let out: string;
  try {
    out = (await promisify(execFile)('bash', [submit], { env })).stdout;
  } catch (e) {
    const x = e as { code?: string | number; stderr?: string; message: string };
    if (x.code === 'ENOENT') throw new Error('cannot run bash to submit the jobs');
    throw new Error(`${submit} failed: ${(x.stderr ?? '').trim() || x.message}`);
  }
  const m = /shards=(\S+) aggregate=(\S+)/.exec(out);
  if (!m) throw new Error(`${submit} printed no job ids: ${out.trim().slice(0, 300)}`);
  return { shards: m[1]!, aggregate: m[2]! };
}
