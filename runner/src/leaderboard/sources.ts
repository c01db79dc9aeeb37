// What each directory given to `leaderboard` is: a run (pass@1 or a pass@N root) is one row;
// a gaia2-run root is one row per phase, each phase a run of its own. A folder of runs is
// refused (reading it as one run would mix them): its runs are named one by one instead.
import { existsSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { ConfigError } from '../plan/errors.js';
import { PHASE_NAMES } from '../plan/phases.js';
import { readPhasesReport } from '../phases/overall-report.js';
import { isCollectionRoot, isPassAtNRoot } from '../viewer/index.js';

export interface LeaderboardSource {
  /** The run directory whose result.json files make the row. */
  dir: string;
  /** The row's name: the directory's, `<root>/<phase>` for a gaia2-run phase. */
  label: string;
  /** The gaia2-run phase the row is (standard, agent2agent, noise); absent for a run. */
  phase?: string;
  /** Runs per scenario a gaia2-run recorded for its phases (else read from the runs). */
  numRuns?: number;
  /** The directory whose viewer the command builds (a gaia2-run root builds its phases). */
  viewerRoot: string;
}

const isRun = (dir: string): boolean => existsSync(join(dir, 'run_config.json')) || isPassAtNRoot(dir);

/** The phases of a gaia2-run root (finished: from its report; running: its phase folders), else null. */
function phasesOf(root: string): Array<{ dir: string; phase: string; numRuns?: number }> | null {
  const report = readPhasesReport(root);
  if (report) {
    return report.phases
      .filter((p) => p.status !== 'error' && existsSync(join(root, p.phase)))
      .map((p) => ({ dir: join(root, p.phase), phase: p.phase, numRuns: report.runs_per_scenario }));
  }
  if (isRun(root)) return null;
  const found = PHASE_NAMES.filter((p) => isRun(join(root, p)));
  return found.length ? found.map((p) => ({ dir: join(root, p), phase: p })) : null;
}

export function resolveSources(args: readonly string[]): LeaderboardSource[] {
  const out: LeaderboardSource[] = [];
  // Two runs of the same name (runs/a/out, runs/b/out) are told apart by the path as given.
  const given = new Map<LeaderboardSource, string>();
  for (const arg of args) {
    const dir = resolve(arg);
    const shown = arg.replace(/\/+$/, '') || arg;
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new ConfigError(`leaderboard: not a directory: ${dir}`);
    if (out.some((s) => s.viewerRoot === dir)) throw new ConfigError(`leaderboard: ${dir} is given twice`);
    const phases = phasesOf(dir);
    if (phases) {
      for (const p of phases) {
        const source: LeaderboardSource = { dir: p.dir, label: `${basename(dir)}/${p.phase}`, phase: p.phase, viewerRoot: dir, ...(p.numRuns ? { numRuns: p.numRuns } : {}) };
        out.push(source);
        given.set(source, `${shown}/${p.phase}`);
      }
    } else if (isCollectionRoot(dir)) {
      throw new ConfigError(`leaderboard: ${dir} holds several runs, not one: name each run (e.g. ${shown}/*)`);
    } else {
      const source: LeaderboardSource = { dir, label: basename(dir), viewerRoot: dir };
      out.push(source);
      given.set(source, shown);
    }
  }
  const taken = (label: string) => out.filter((o) => o.label === label).length > 1;
  const clashing = out.filter((s) => taken(s.label));
  for (const s of clashing) s.label = given.get(s)!;
  return out;
}
