// The work list: (scenario, run k) pairs, run-major so run_1 fills first, and the retry
// rule: only runs without a judged result (pass or fail) are run again (spec §7.3).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { artifactDir, type ScenarioEntry } from '../dataset/index.js';

export interface Task {
  entry: ScenarioEntry;
  /** 1-based; null for a pass@1 run (no run_k directory). */
  runIndex: number | null;
  /** Artifact directory, null when nothing is kept on disk. */
  dir: string | null;
  /** `run_2/search/s1`-style label for logs and progress. */
  label: string;
}

export function buildTasks(entries: readonly ScenarioEntry[], passAt: number, outputDir: string | null): Task[] {
  const tasks: Task[] = [];
  for (let k = 1; k <= passAt; k++) {
    const runIndex = passAt > 1 ? k : null;
    for (const entry of entries) {
      const rel = join(runIndex ? `run_${k}` : '', entry.relDir, entry.id);
      tasks.push({ entry, runIndex, dir: outputDir ? artifactDir(outputDir, entry, runIndex) : null, label: rel });
    }
  }
  return tasks;
}

export type PriorOutcome = 'pass' | 'fail' | 'rerun';

/** What an existing result.json says: judged (kept) or not (rerun). */
export function priorOutcome(dir: string): PriorOutcome {
  const f = join(dir, 'result.json');
  if (!existsSync(f)) return 'rerun';
  try {
    const r = JSON.parse(readFileSync(f, 'utf8')) as { success?: unknown; status?: unknown };
    if (r.status === 'error') return 'rerun';
    if (r.success === true) return 'pass';
    if (r.success === false) return 'fail';
    return 'rerun';
  } catch {
    return 'rerun';
  }
}

export function selectForRetry(tasks: readonly Task[]): { rerun: Task[]; passed: number; failed: number } {
  let passed = 0;
  let failed = 0;
  const rerun: Task[] = [];
  for (const t of tasks) {
    const o = t.dir ? priorOutcome(t.dir) : 'rerun';
    if (o === 'pass') passed++;
    else if (o === 'fail') failed++;
    else rerun.push(t);
  }
  return { rerun, passed, failed };
}
