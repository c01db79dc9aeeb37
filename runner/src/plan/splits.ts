// Split selection (docs/runner.md, "Splits"): lower-cased, `all` alone = canonical list,
// unknown names rejected, duplicates dropped (first wins). Empty → null (no filter).
import { CANONICAL_SPLITS } from './plan.js';
import { ConfigError } from './errors.js';

export function normaliseSplits(items: readonly string[], where: string): string[] | null {
  const list = items.map((s) => s.trim().toLowerCase()).filter(Boolean);
  if (list.length === 0) return null;
  if (list.includes('all')) {
    if (list.some((s) => s !== 'all')) throw new ConfigError(`${where} cannot combine 'all' with other splits`);
    return [...CANONICAL_SPLITS];
  }
  const unknown = [...new Set(list.filter((s) => !(CANONICAL_SPLITS as readonly string[]).includes(s)))].sort();
  if (unknown.length) throw new ConfigError(`Unknown split(s) in ${where}: ${unknown.join(', ')} (known: ${CANONICAL_SPLITS.join(', ')})`);
  return [...new Set(list)];
}
