// The choice of apps for app agents is ARE's: Python's random.Random(seed).sample over the
// eligible apps. Expected values were printed by CPython 3.11 (`random.Random(seed)`), so a
// drift from Python's generator fails here.
import { describe, expect, it } from 'vitest';
import { chooseAppAgentApps, PyRandom, scenarioSeed } from '../../../agent-image/src/a2a/index.js';

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('PyRandom matches CPython', () => {
  it.each([
    [0, [3626764237, 1654615998, 3255389356], [6, 9, 0, 2], [49, 97, 53, 5, 33, 65, 62]],
    [1, [577090037, 2444712010, 3639700191], [2, 1, 4, 0], [17, 72, 97, 8, 32, 15, 63]],
    [42, [2746317213, 478163327, 107420369], [1, 0, 4, 9], [81, 14, 3, 94, 35, 31, 28]],
    [2 ** 40 + 7, [2635837658, 3209733218, 3500038837], [9, 7, 4, 8], [78, 95, 81, 73, 90, 60, 32]],
    [-5, [2675342405, 1097127993, 3185950873], [9, 4, 5, 6], [79, 32, 94, 45, 88, 83, 67]],
  ])('seed %s: getrandbits(32), sample(range(10), 4), sample(range(100), 7)', (seed, words, small, large) => {
    const r = new PyRandom(seed);
    expect([r.nextUint32(), r.nextUint32(), r.nextUint32()]).toEqual(words);
    expect(new PyRandom(seed).sample(range(10), 4)).toEqual(small);
    // n > setsize: the set-based strategy
    expect(new PyRandom(seed).sample(range(100), 7)).toEqual(large);
  });

  it('rejects a sample larger than the population', () => {
    expect(() => new PyRandom(0).sample([1, 2], 3)).toThrow(/larger than population/);
  });
});

const scenario = (names: string[], seed?: number) => ({
  metadata: { definition: { scenario_id: 's', ...(seed !== undefined ? { seed } : {}) } },
  apps: names.map((name) => ({ name })),
});
const GAIA2_APPS = ['AgentUserInterface', 'Calendar', 'Contacts', 'Emails', 'Messages', 'Chats', 'RentAFlat', 'Shopping', 'Cabs', 'City', 'Files', 'SystemApp'];

describe('chooseAppAgentApps', () => {
  it('never picks the user interface or the system app, and takes floor(n × prop) apps', () => {
    const all = chooseAppAgentApps(scenario(GAIA2_APPS), 1);
    expect(all.map((c) => c.name).sort()).toEqual(GAIA2_APPS.filter((n) => n !== 'AgentUserInterface' && n !== 'SystemApp').sort());
    expect(chooseAppAgentApps(scenario(GAIA2_APPS), 0.5)).toHaveLength(5); // floor(10 × 0.5)
    expect(chooseAppAgentApps(scenario(GAIA2_APPS), 0.09)).toEqual([]); // floor(0.9)
    expect(chooseAppAgentApps(scenario(GAIA2_APPS), 0)).toEqual([]);
  });

  it('is reproducible per seed and follows CPython sample order', () => {
    // random.Random(0).sample(eligible, 5) in CPython: indices [6, 9, 0, 2, ...] of range(10)
    const eligible = GAIA2_APPS.filter((n) => n !== 'AgentUserInterface' && n !== 'SystemApp');
    const expected = new PyRandom(0).sample(range(10), 5).map((i) => eligible[i]);
    const a = chooseAppAgentApps(scenario(GAIA2_APPS), 0.5);
    expect(a.map((c) => c.name)).toEqual(expected);
    expect(a.slice(0, 4).map((c) => c.name)).toEqual([eligible[6], eligible[9], eligible[0], eligible[2]]);
    expect(chooseAppAgentApps(scenario(GAIA2_APPS), 0.5)).toEqual(a);
    // The scenario's own seed, or the run's override, changes the choice.
    const seeded = chooseAppAgentApps(scenario(GAIA2_APPS, 42), 0.5);
    expect(seeded.slice(0, 4).map((c) => c.name)).toEqual([eligible[1], eligible[0], eligible[4], eligible[9]]);
    expect(chooseAppAgentApps(scenario(GAIA2_APPS), 0.5, 42)).toEqual(seeded);
  });

  it('maps names to our CLIs and reads the seed from the metadata', () => {
    expect(chooseAppAgentApps(scenario(['Shopping', 'AgentUserInterface']), 1)).toEqual([{ name: 'Shopping', cli: 'shopping' }]);
    expect(chooseAppAgentApps(scenario(['Mystery']), 1)).toEqual([{ name: 'Mystery', cli: null }]);
    expect(scenarioSeed(scenario([], 7))).toBe(7);
    expect(scenarioSeed({})).toBe(0);
  });

  it('says so when no app is eligible', () => {
    expect(() => chooseAppAgentApps(scenario(['AgentUserInterface']), 1)).toThrow(/no app that an app agent could operate/);
  });
});
