// Opt-in result cache (--enable-caching, like ARE's --enable_caching): a finished, judged run
// is stored under a key made of everything that decides its outcome — the scenario's content,
// the image id, the agent's and the judge's settings, the options that change a run, and the
// run index — and a later run with the same key reuses it instead of starting a container.
// Errors are never stored: they say nothing about the agent and should be retried. Nor is a
// run whose agent program failed a turn: the orchestrator decides after the run, from the model
// gateway's record, whether it stands as judged or is a provider_error (run/agent-failures.ts).
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { ScenarioResult } from '@gaia2/contract';
import type { RunPlan } from '../plan/plan.js';
import { writeJsonAtomic } from '../fsutil/atomic.js';
import { sha256File } from '../fsutil/hash.js';
import { cacheKeyOptions, toRecord } from '../record/index.js';
import type { RunScenarioFn } from '../run/index.js';
import { agentFailuresOf } from '../run/agent-failures.js';

export const RESULT_CACHE_ENV = 'GAIA2_RESULT_CACHE';

export function resultCacheRoot(env: Record<string, string | undefined>): string {
  return env[RESULT_CACHE_ENV]?.trim() || join(homedir(), '.cache', 'gaia2', 'results');
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * The part of the key shared by every run of a plan: the image id and the run record's options
 * without the fields record/cache-key.ts excludes (keys, and what cannot change an outcome:
 * concurrency, pass@N, log level, ports). The phase's settings are in: a Noise or
 * Agent2Agent run of a scenario is not its standard run.
 */
export function configKey(plan: RunPlan, imageId: string): string {
  return sha256(JSON.stringify({ v: 2, image_id: imageId, options: cacheKeyOptions(toRecord(plan)) }));
}

export interface CacheMark {
  key: string;
  /** When the reused run was first made. */
  original_started_at: string | null;
}

/** Wraps a run function: a hit copies the stored run into the output dir, a judged miss is stored. */
export function withResultCache(run: RunScenarioFn, c: { root: string; configKey: string; log: (l: string) => void }): RunScenarioFn {
  return async (o) => {
    const key = sha256(`${c.configKey}\n${o.scenario?.sha256 ?? sha256File(o.scenarioFile)}\n${o.runIndex ?? 1}`);
    const entry = join(c.root, key.slice(0, 2), key);
    const stored = join(entry, 'result.json');
    if (existsSync(stored)) {
      const old = JSON.parse(readFileSync(stored, 'utf8')) as ScenarioResult;
      const result: ScenarioResult = {
        ...old,
        ...(o.split ? { split: o.split } : {}),
        ...(o.runIndex ? { run_index: o.runIndex } : {}),
        reused_from_cache: { key, original_started_at: typeof old.started_at === 'string' ? old.started_at : null } satisfies CacheMark,
      };
      if (o.outputDir) {
        mkdirSync(o.outputDir, { recursive: true });
        cpSync(entry, o.outputDir, { recursive: true });
        await writeJsonAtomic(join(o.outputDir, 'result.json'), result);
      }
      return result;
    }
    const result = await run(o);
    const judged = result.status === 'pass' || result.status === 'fail';
    if (judged && agentFailuresOf(result).length === 0 && o.outputDir && existsSync(join(o.outputDir, 'result.json'))) {
      // Copied aside then renamed: a concurrent reader never sees half an entry.
      const tmp = `${entry}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
      try {
        mkdirSync(tmp, { recursive: true });
        cpSync(o.outputDir, tmp, { recursive: true });
        if (!existsSync(entry)) renameSync(tmp, entry);
      } catch (e) {
        c.log(`result cache: could not store a run (${(e as Error).message}); it will run again next time`);
      } finally {
        rmSync(tmp, { recursive: true, force: true });
      }
    }
    return result;
  };
}
