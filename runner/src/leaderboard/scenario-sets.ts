// Which scenarios the rows of a section share. Rows compare fairly only on the scenarios they
// all ran; a scenario is the report's key (its folder below the run, without run_k).
import type { RunRecord } from '../report/index.js';

export interface ScenarioSets {
  /** Scenarios that any row ran. */
  union: number;
  /** Scenarios that every row ran. */
  common: number;
  /** Every row ran the same scenarios. */
  same: boolean;
}

export function scenarioSets(rows: ReadonlyArray<readonly RunRecord[]>): { sets: ScenarioSets; commonKeys: Set<string> } {
  const keys = rows.map((records) => new Set(records.map((r) => r.key)));
  const union = new Set(keys.flatMap((k) => [...k]));
  const commonKeys = new Set([...union].filter((k) => keys.every((s) => s.has(k))));
  return { sets: { union: union.size, common: commonKeys.size, same: keys.every((s) => s.size === commonKeys.size) }, commonKeys };
}
