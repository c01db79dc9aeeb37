// A sequences file's chains matched to the dataset's scenarios: every id must name exactly one
// scenario of the selection, or the run stops before anything starts.
import type { ScenarioEntry } from '../dataset/index.js';
import { ConfigError } from '../plan/errors.js';
import type { Chain } from './parse.js';

export interface ChainPlan {
  universeId: string;
  /** The chain's scenarios in play order: position i is entries[i]. */
  entries: ScenarioEntry[];
}

export function resolveChains(chains: readonly Chain[], entries: readonly ScenarioEntry[], file: string): ChainPlan[] {
  const byId = new Map<string, ScenarioEntry[]>();
  for (const e of entries) byId.set(e.id, [...(byId.get(e.id) ?? []), e]);
  const unknown: string[] = [];
  const out = chains.map((c) => ({
    universeId: c.universeId,
    entries: c.scenarioIds.flatMap((id) => {
      const found = byId.get(id) ?? [];
      if (found.length === 0) unknown.push(`${id} (line ${c.line})`);
      if (found.length > 1)
        throw new ConfigError(`${file}:${c.line}: scenario_id ${JSON.stringify(id)} names ${found.length} scenarios of the dataset (${found.map((f) => f.file).join(', ')}); narrow the dataset with --splits`);
      return found.slice(0, 1);
    }),
  }));
  if (unknown.length)
    throw new ConfigError(`${file}: ${unknown.length} scenario id(s) not in the dataset: ${unknown.slice(0, 10).join(', ')}${unknown.length > 10 ? ', …' : ''}`);
  return out;
}
