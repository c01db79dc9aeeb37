// The Gaia2 submission protocol's phases with the reference's defaults (docs/protocol.md):
// three runs per scenario each; the standard phase over the five capability splits, the two
// augmented phases over the `mini` subset.
import { ConfigError } from './errors.js';

export const PHASE_NAMES = ['standard', 'agent2agent', 'noise'] as const;
export type PhaseName = (typeof PHASE_NAMES)[number];

/** The reference's NUM_RUNS. */
export const DEFAULT_PHASE_RUNS = 3;
/** The reference's a2a_app_prop of the agent2agent phase: every app gets an app agent. */
export const AGENT2AGENT_APP_PROP = 1.0;

/** Phase names from a list (TOML or comma-separated flag): known, no duplicates, canonical order. */
export function parsePhaseNames(items: readonly string[], where: string): PhaseName[] {
  const names = items.map((s) => s.trim().toLowerCase()).filter(Boolean);
  const unknown = names.filter((n) => !(PHASE_NAMES as readonly string[]).includes(n));
  if (unknown.length) throw new ConfigError(`${where}: unknown phase(s) ${unknown.join(', ')} (known: ${PHASE_NAMES.join(', ')})`);
  if (names.length === 0) throw new ConfigError(`${where}: name at least one phase (${PHASE_NAMES.join(', ')})`);
  return PHASE_NAMES.filter((p) => names.includes(p));
}

export function checkRuns(runs: number, where: string): number {
  if (!Number.isInteger(runs) || runs < 1) throw new ConfigError(`${where} must be an integer >= 1 (got ${runs})`);
  return runs;
}
