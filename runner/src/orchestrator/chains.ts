// Universe chains in a dataset run (docs/protocol.md, "Universe chains"): a chain is one unit
// of the run's parallelism and plays its scenarios in order, each in a unit of its own, with
// what the one before left carried in (sequences/carry.ts) and a checkpoint after each judged
// scenario. --retry resumes a chain at its first scenario without a verdict, from the
// checkpoint before it; pass@k replays whole chains, each run_k from the scenarios' own states.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ScenarioResult } from '@gaia2/contract/result';
import type { ContainerFile, ContainerHandle, UnitBackend } from '../engine/index.js';
import { classify } from '../report/index.js';
import { ENV } from '@gaia2/contract/paths';
import { carryIntoScenario, homeFiles, takeCarry, type CarriedState, type CarrySource } from '../sequences/carry.js';
import { checkpointPath, readCheckpoint, writeCheckpoint } from '../sequences/checkpoint.js';
import type { ChainPlan } from '../sequences/resolve.js';
import { buildTasks, priorOutcome, type Task } from './tasks.js';

export interface ChainTask {
  universeId: string;
  /** Where its checkpoints go: the output directory, or its run_k for pass@k. */
  runDir: string;
  steps: Task[];
  /** The position the chain (re)starts at: 0, or the first without a verdict on --retry. */
  startAt: number;
}

/** What a chain's step adds to its scenario run. */
export interface ChainStepRun {
  content?: Buffer;
  files: ContainerFile[];
  /** Variables the step's unit gets besides the run's (ENV.carryHome when a home is carried late). */
  env: Record<string, string>;
  beforeRemove: (unit: ContainerHandle, image?: CarrySource | null) => Promise<void>;
  /** universe_id, universe_position and carry_error, recorded in the step's result. */
  fields: Partial<ScenarioResult>;
}

export function buildChainTasks(chains: readonly ChainPlan[], passAt: number, out: string): ChainTask[] {
  const byRun = chains.map((c) => ({ c, tasks: buildTasks(c.entries, passAt, out) }));
  const tasks: ChainTask[] = [];
  // Run-major like single scenarios: run_1's chains first.
  for (let k = 0; k < passAt; k++) {
    for (const { c, tasks: all } of byRun) {
      const steps = all.slice(k * c.entries.length, (k + 1) * c.entries.length);
      tasks.push({ universeId: c.universeId, runDir: passAt > 1 ? join(out, `run_${k + 1}`) : out, steps, startAt: 0 });
    }
  }
  return tasks;
}

/** --retry: each chain from its first scenario without a verdict; the judged ones before it are kept. */
export function selectChainsForRetry(tasks: readonly ChainTask[]): { rerun: ChainTask[]; passed: number; failed: number } {
  let passed = 0;
  let failed = 0;
  const rerun: ChainTask[] = [];
  for (const c of tasks) {
    const outcomes = c.steps.map((s) => (s.dir ? priorOutcome(s.dir) : 'rerun'));
    const first = outcomes.indexOf('rerun');
    const kept = first < 0 ? outcomes : outcomes.slice(0, first);
    passed += kept.filter((o) => o === 'pass').length;
    failed += kept.filter((o) => o === 'fail').length;
    if (first >= 0) rerun.push({ ...c, startAt: first });
  }
  return { rerun, passed, failed };
}

/** How many scenario runs the chains still have to play. */
export const chainRuns = (tasks: readonly ChainTask[]): number => tasks.reduce((n, c) => n + c.steps.length - c.startAt, 0);

export interface ChainDeps {
  runTask: (t: Task, step: ChainStepRun) => Promise<ScenarioResult>;
  engine: UnitBackend;
  signal?: AbortSignal | undefined;
  log: (line: string) => void;
}

/** Plays one chain from c.startAt to its end, one scenario at a time. */
export async function runChain(c: ChainTask, deps: ChainDeps): Promise<void> {
  // What the next scenario starts from, and why it is not what the one before it left.
  let carried: CarriedState | null = null;
  let carryError: string | null = null;
  if (c.startAt > 0) {
    const before = c.steps[c.startAt - 1]!;
    const file = checkpointPath(c.runDir, c.universeId, c.startAt - 1, before.entry.id);
    try {
      carried = await readCheckpoint(file);
      if (!carried) carryError = `no checkpoint ${file} to resume from: the scenario started from its own initial state`;
    } catch (e) {
      carryError = `checkpoint ${file} cannot be read (${(e as Error).message}): the scenario started from its own initial state`;
    }
  }
  for (let pos = c.startAt; pos < c.steps.length; pos++) {
    if (deps.signal?.aborted) return;
    const t = c.steps[pos]!;
    let content: Buffer | undefined;
    let files: ContainerFile[] = [];
    // Without an archive API the carry is read through the image (GET /carry): its daemon may read
    // the agent's private files then.
    let env: Record<string, string> = deps.engine.capabilities.filesAtCreate ? {} : { [ENV.carryRead]: '1' };
    if (carried) {
      try {
        content = carryIntoScenario(readFileSync(t.entry.file), carried, t.entry.file);
        // Without files at create, the home and the drive go in through the adapter before
        // the scenario's ready marker; the entrypoint puts the home in before the agent starts.
        const late = !deps.engine.capabilities.filesAtCreate;
        files = await homeFiles(carried, late);
        if (late && carried.home.length) env = { ...env, [ENV.carryHome]: '1' };
      } catch (e) {
        carryError = (e as Error).message;
      }
    }
    let left: CarriedState | null = null;
    let takeError: string | null = null;
    const result = await deps.runTask(t, {
      ...(content ? { content } : {}),
      files,
      env,
      beforeRemove: async (unit, image) => {
        try {
          left = await takeCarry(unit, image);
        } catch (e) {
          takeError = (e as Error).message;
        }
      },
      fields: { universe_id: c.universeId, universe_position: pos, ...(carryError ? { carry_error: carryError } : {}) },
    });
    const judged = classify(result) !== 'error';
    if (judged && left) {
      // Without its checkpoint the chain still plays on (only a --retry would miss it).
      await writeCheckpoint(checkpointPath(c.runDir, c.universeId, pos, t.entry.id), left).catch((e: unknown) => deps.log(`${t.label}: checkpoint not written: ${(e as Error).message}`));
      carried = left;
      carryError = null;
    } else if (judged) {
      carried = null;
      carryError = `${t.entry.id} (position ${pos}) left no state to carry: ${takeError ?? 'nothing read'}; the scenario started from its own initial state`;
    } else {
      // No verdict: its state is not trusted; the next plays on from the last judged one's.
      carryError = `${t.entry.id} (position ${pos}) ended without a verdict; the state before it was carried instead`;
    }
  }
}
