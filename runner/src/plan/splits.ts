// Split selection (docs/runner.md, "Splits"): lower-cased, `all` alone = canonical list,
// unknown names rejected, duplicates dropped (first wins). Empty → null (no filter).
// With a language (a per-language dataset, docs/config.md "Languages") the splits are those
// of a translated dataset, without `time`, and "no splits" means all of them.
import { CANONICAL_SPLITS, MULTILINGUAL_SPLITS } from './plan.js';
import { ConfigError } from './errors.js';

export function normaliseSplits(items: readonly string[], where: string, language: string | null = null): string[] | null {
  const available: readonly string[] = language ? MULTILINGUAL_SPLITS : CANONICAL_SPLITS;
  const list = items.map((s) => s.trim().toLowerCase()).filter(Boolean);
  if (list.length === 0) return language ? [...available] : null;
  if (list.includes('all')) {
    if (list.some((s) => s !== 'all')) throw new ConfigError(`${where} cannot combine 'all' with other splits`);
    return [...available];
  }
  const unknown = [...new Set(list.filter((s) => !available.includes(s)))].sort();
  if (unknown.length && language && unknown.every((s) => (CANONICAL_SPLITS as readonly string[]).includes(s)))
    throw new ConfigError(`Split(s) not available for language ${language} in ${where}: ${unknown.join(', ')} (per-language datasets provide: ${MULTILINGUAL_SPLITS.join(', ')})`);
  if (unknown.length) throw new ConfigError(`Unknown split(s) in ${where}: ${unknown.join(', ')} (known: ${available.join(', ')})`);
  return [...new Set(list)];
}
