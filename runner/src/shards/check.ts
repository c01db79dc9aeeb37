// What must hold before shards are merged: one shard count, every shard present, the same run
// settings, no scenario run twice. Each failure is a ConfigError naming the shard folder and the
// field; an incomplete shard is not an error (aggregate reports it, see incompleteShards).
import { basename } from 'node:path';
import { ConfigError } from '../plan/errors.js';
import type { RunRecord } from '../record/index.js';
import { settingOf } from '../report/meta.js';
import type { ShardFolder } from './folders.js';

/** The number of shards every folder agrees on; a missing shard is named. */
export function checkShardSet(shards: readonly ShardFolder[], base: string): number {
  const counts = [...new Set(shards.map((s) => s.spec.count))];
  if (counts.length > 1) {
    const byCount = counts.map((n) => `${shards.filter((s) => s.spec.count === n).map((s) => s.rel).join(', ')} (${n} shards)`);
    throw new ConfigError(`${base}: the shard folders disagree on the number of shards: ${byCount.join('; ')}`);
  }
  const n = counts[0]!;
  const have = new Set(shards.map((s) => s.spec.index));
  const missing = Array.from({ length: n }, (_, i) => i).filter((i) => !have.has(i));
  if (missing.length)
    throw new ConfigError(
      `${base}: missing shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}-of-${n}`).join(', ')} of ${n} (run ${missing.length > 1 ? 'them' : 'it'} with --shard-id ${missing.join('/')} --num-shards ${n}, or copy ${missing.length > 1 ? 'their folders' : 'its folder'} here)`,
    );
  return n;
}

/** What a target reads, without where a local copy sits or which shard it is. */
function datasetOf(t: RunRecord['target']): unknown {
  if (!t) return null;
  return t.kind === 'local' ? basename(t.path) : t.kind === 'hf' ? t.repo : t.scenario;
}

const targetField = <K extends 'limit' | 'language'>(t: RunRecord['target'], k: K): unknown => (t && t.kind !== 'scenario' ? (t[k] ?? null) : null);

/**
 * The settings that make shards parts of one run. A local dataset is compared by its folder's
 * name (each machine keeps its copy where it likes); a Hugging Face one by id and resolved commit.
 */
const SETTINGS: ReadonlyArray<[field: string, value: (rec: RunRecord) => unknown]> = [
  ['agent', (r) => r.agent],
  ['provider', (r) => r.agent_options?.provider ?? null],
  ['model', (r) => r.agent_options?.model ?? null],
  ['image', (r) => r.agent_options?.image ?? null],
  ['dataset', (r) => datasetOf(r.target)],
  ['dataset revision', (r) => r.dataset_revision_sha ?? (r.target?.kind === 'hf' ? r.target.revision : null)],
  ['language', (r) => targetField(r.target, 'language')],
  ['splits', (r) => r.splits ?? null],
  ['limit', (r) => targetField(r.target, 'limit')],
  ['shard.dataset_num_scenarios', (r) => r.shard?.dataset_num_scenarios ?? null],
  ['pass_at', (r) => r.run_options.pass_at],
  ['judge_model', (r) => r.judge_options?.model ?? null],
  ['judge_prompt_version', (r) => r.judge_options?.prompt_version ?? null],
  ['setting (standard, noise, agent2agent)', (r) => settingOf(r)],
  ['noise', (r) => r.noise ?? null],
  ['a2a_app_prop', (r) => r.agent2agent_options?.app_prop ?? null],
];

/** Every shard's settings against the first's; the first difference is named with both shards. */
export function checkSameSettings(shards: readonly ShardFolder[]): void {
  const [first, ...rest] = shards;
  if (!first) return;
  for (const s of rest)
    for (const [field, value] of SETTINGS) {
      const a = JSON.stringify(value(first.record));
      const b = JSON.stringify(value(s.record));
      if (a !== b) throw new ConfigError(`${s.recordFile}: ${field} is ${b} but ${first.rel} has ${a}: shards of one run must share it`);
    }
}

/** `search/s1` (pass@1) or `search/s1 (run 2)`: a result's identity across shards. */
const runLabel = (key: string, runIndex: number, passAt: number): string => (passAt > 1 ? `${key} (run ${runIndex})` : key);

/** No scenario (and run, for pass@N) may have a result in two shards. */
export function checkNoDuplicates(shards: readonly ShardFolder[]): void {
  const seen = new Map<string, string>();
  const dups: string[] = [];
  for (const s of shards)
    for (const r of s.results) {
      const id = runLabel(r.key, r.runIndex, s.passAt);
      const prev = seen.get(id);
      if (prev && prev !== s.rel) dups.push(`${id} is in both ${prev} and ${s.rel}`);
      else seen.set(id, s.rel);
    }
  if (dups.length)
    throw new ConfigError(`duplicate result${dups.length > 1 ? 's' : ''} across shards (was a shard run with other --num-shards, or a folder copied twice?): ${dups.slice(0, 10).join('; ')}${dups.length > 10 ? `; … ${dups.length - 10} more` : ''}`);
}

export interface IncompleteShard {
  rel: string;
  results: number;
  planned: number;
}

/** Shards with fewer results than they planned (scenarios × runs): still running, interrupted, or partly copied. */
export function incompleteShards(shards: readonly ShardFolder[]): IncompleteShard[] {
  return shards
    .map((s) => ({ rel: s.rel, results: s.results.length, planned: s.facts.num_scenarios * s.passAt }))
    .filter((x) => x.results < x.planned);
}
