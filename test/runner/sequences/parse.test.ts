import { describe, expect, it } from 'vitest';
import { parseSequences } from '../../../runner/src/sequences/parse.js';
import { resolveChains } from '../../../runner/src/sequences/resolve.js';
import type { ScenarioEntry } from '../../../runner/src/dataset/index.js';

const line = (o: unknown) => JSON.stringify(o);
const F = 'seq.jsonl';

describe('parseSequences', () => {
  it('reads chains in order, skips blank lines, cuts to cap', () => {
    const text = [line({ universe_id: 'u1', scenarios: [{ scenario_id: 'a' }, { scenario_id: 'b' }] }), '', line({ universe_id: 'u2', cap: 1, scenarios: [{ scenario_id: 'c' }, { scenario_id: 'd' }] })].join('\n');
    expect(parseSequences(text, F)).toEqual([
      { universeId: 'u1', scenarioIds: ['a', 'b'], line: 1 },
      { universeId: 'u2', scenarioIds: ['c'], line: 3 },
    ]);
  });

  it('refuses an empty file', () => {
    expect(() => parseSequences('\n  \n', F)).toThrow(/seq\.jsonl: the sequences file has no chains/);
  });

  it.each([
    ['{not json', /seq\.jsonl:2: not a JSON object/],
    ['[1]', /seq\.jsonl:2: not a JSON object/],
    [line({ scenarios: [{ scenario_id: 'x' }] }), /seq\.jsonl:2: universe_id must be a non-empty string/],
    [line({ universe_id: '../up', scenarios: [{ scenario_id: 'x' }] }), /seq\.jsonl:2: universe_id "..\/up" may hold only/],
    [line({ universe_id: 'u', scenarios: [] }), /seq\.jsonl:2: scenarios must be a non-empty list/],
    [line({ universe_id: 'u', scenarios: [{ id: 'x' }] }), /seq\.jsonl:2: scenarios\[0\]\.scenario_id must be a non-empty string/],
    [line({ universe_id: 'u', cap: 0, scenarios: [{ scenario_id: 'x' }] }), /seq\.jsonl:2: cap must be an integer >= 1/],
    [line({ universe_id: 'u', caps: 1, scenarios: [{ scenario_id: 'x' }] }), /seq\.jsonl:2: unknown key "caps"/],
  ])('names the malformed line: %s', (bad, msg) => {
    expect(() => parseSequences(`${line({ universe_id: 'ok', scenarios: [{ scenario_id: 'a' }] })}\n${bad}`, F)).toThrow(msg);
  });

  it('refuses a duplicate universe and a scenario in two places', () => {
    const a = line({ universe_id: 'u', scenarios: [{ scenario_id: 'a' }] });
    expect(() => parseSequences(`${a}\n${a}`, F)).toThrow(/seq\.jsonl:2: universe_id "u" is already the chain of line 1/);
    const b = line({ universe_id: 'v', scenarios: [{ scenario_id: 'a' }] });
    expect(() => parseSequences(`${a}\n${b}`, F)).toThrow(/seq\.jsonl:2: scenario_id "a" is already in the chain of line 1/);
    const c = line({ universe_id: 'w', scenarios: [{ scenario_id: 'x' }, { scenario_id: 'x' }] });
    expect(() => parseSequences(c, F)).toThrow(/seq\.jsonl:1: scenario_id "x" is already in the chain of line 1/);
  });
});

describe('resolveChains', () => {
  const entry = (id: string, relDir = ''): ScenarioEntry => ({ file: `/d/${relDir}/${id}.json`, id, relDir, split: null, startTime: null, duration: null, sha256: '', bytes: 0, notifyTask: null });

  it('maps ids to the dataset entries in chain order', () => {
    const chains = parseSequences(line({ universe_id: 'u', scenarios: [{ scenario_id: 'b' }, { scenario_id: 'a' }] }), F);
    expect(resolveChains(chains, [entry('a'), entry('b')], F).map((c) => c.entries.map((e) => e.id))).toEqual([['b', 'a']]);
  });

  it('lists unknown ids with their lines', () => {
    const chains = parseSequences(line({ universe_id: 'u', scenarios: [{ scenario_id: 'a' }, { scenario_id: 'zz' }] }), F);
    expect(() => resolveChains(chains, [entry('a')], F)).toThrow(/seq\.jsonl: 1 scenario id\(s\) not in the dataset: zz \(line 1\)/);
  });

  it('refuses an id that names two scenarios', () => {
    const chains = parseSequences(line({ universe_id: 'u', scenarios: [{ scenario_id: 'a' }] }), F);
    expect(() => resolveChains(chains, [entry('a', 'x'), entry('a', 'y')], F)).toThrow(/seq\.jsonl:1: scenario_id "a" names 2 scenarios/);
  });
});
