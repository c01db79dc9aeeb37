// Reading a scenario run's folder for judging: its scenario file, its finished event log and
// the user details the daemon judged with. Shared by `judge --output-dir` and `verify`.
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { parseEventsJsonl } from '@gaia2/contract/events';
import { parsePyJson } from '@gaia2/contract/pyjson';
import type { ScenarioResult } from '@gaia2/contract/result';
import type { UserDetails } from '@gaia2/contract/lib/scenario';

/** A finished log: its last line counts even without a trailing newline. */
export const eventLogOf = (text: string) => parseEventsJsonl(text.endsWith('\n') ? text : `${text}\n`, parsePyJson);

export function readUserDetails(path: string): UserDetails | undefined {
  if (!existsSync(path)) return undefined;
  try {
    const d = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown> | null;
    if (!d || typeof d !== 'object') return undefined;
    const s = (v: unknown) => (v == null ? '' : String(v));
    return { first_name: s(d.first_name), last_name: s(d.last_name), address: s(d.address) };
  } catch {
    return undefined;
  }
}

/** The scenario a run played: the copy in its folder, else result.json's scenario_file. */
export function scenarioPath(result: ScenarioResult, runDir: string, root: string): string | null {
  const candidates = [join(runDir, 'scenario.json')];
  const file = result.scenario_file;
  if (file) candidates.push(isAbsolute(file) ? file : resolve(file), resolve(root, file));
  return candidates.find((p) => existsSync(p)) ?? null;
}
