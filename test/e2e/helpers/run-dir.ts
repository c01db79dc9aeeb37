// Reading a finished run directory in the gateway suites (local engines and Kubernetes): its
// files as text, its scenario results, each scenario's traffic record, and the check that the
// record is what the provider doubles billed and what result.json counts.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { expect } from 'vitest';
import type { ScenarioResult } from '@gaia2/contract';
import { TRAFFIC_FILE, type TrafficLine } from '../../../runner/src/gateway/index.js';
import type { FakeLlm } from '../../helpers/fake-llm/index.js';

/** Every file under a directory, as text. */
export function allFiles(dir: string): Array<{ path: string; text: string }> {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .flatMap((f) => {
      try {
        return [{ path: relative(dir, f), text: readFileSync(f, 'utf8') }];
      } catch {
        return []; // a directory
      }
    });
}

/** The single file named `name` anywhere under a run's output directory (throws unless exactly one). */
export function onlyFile(dir: string, name: string): string {
  const found = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((p) => p.split('/').pop() === name);
  if (found.length !== 1) throw new Error(`${found.length} files ${name} under ${dir}`);
  return readFileSync(join(dir, found[0]!), 'utf8');
}

/** Each scenario's result.json (attempts left out), by its directory relative to `out`. */
export const resultsOf = (out: string): Map<string, ScenarioResult> =>
  new Map(
    readdirSync(out, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('result.json') && !f.includes('.attempts'))
      .map((f) => [dirname(f), JSON.parse(readFileSync(join(out, f), 'utf8')) as ScenarioResult]),
  );

/** A scenario directory's traffic record. */
export const traffic = (dir: string): TrafficLine[] =>
  readFileSync(join(dir, TRAFFIC_FILE), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as TrafficLine);

/** The record holds every request by role, its usage is the doubles' billing, and result.json counts it. Returns the lines. */
export function expectRecordIsBilling(out: string, model: FakeLlm, judge: FakeLlm): { lines: TrafficLine[]; agent: TrafficLine[]; judged: TrafficLine[] } {
  const lines = [...resultsOf(out).keys()].flatMap((k) => traffic(join(out, k)));
  const agent = lines.filter((l) => l.role === 'agent');
  const judged = lines.filter((l) => l.role === 'judge');
  expect(agent).toHaveLength(model.requests.length);
  expect(judged).toHaveLength(judge.requests.length);
  const sum = (ls: TrafficLine[], k: 'input_tokens' | 'output_tokens') => ls.reduce((n, l) => n + (l.usage?.[k] ?? 0), 0);
  expect(sum(agent, 'input_tokens')).toBe(model.billed.reduce((n, u) => n + u.input + (u.cacheRead ?? 0), 0));
  expect(sum(agent, 'output_tokens')).toBe(model.billed.reduce((n, u) => n + u.output, 0));
  expect(sum(judged, 'input_tokens')).toBe(judge.billed.reduce((n, u) => n + u.input, 0));
  for (const [k, r] of resultsOf(out)) {
    const mine = traffic(join(out, k));
    expect(r.usage?.agent).toMatchObject({ source: 'gateway', llm_calls: mine.filter((l) => l.role === 'agent').length });
  }
  return { lines, agent, judged };
}
