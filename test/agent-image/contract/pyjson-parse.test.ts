// Deferred values (PyJsonParseOptions.defer): the daemon skips the apps' states of a scenario
// at boot and parses each when first read. A deferred parse must give exactly the values, and
// the errors, of the eager one; the skip must fail at once on what it can see (an unterminated
// string or value); and the scenario's text must go once every deferred value is parsed.
// (The eager parser itself is tested against JSON.parse in pyjson.test.ts.)
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { DeferredJson, PyFloat, parsePyJson, undeferred, whenAllParsed } from '../../../agent-image/src/contract/pyjson.js';
import { GOLDEN } from '../world/golden.js';

// `apps[i].app_state` in a scenario, as the daemon defers them; `[i].app_state` in a list.
const APP_STATES = { keys: new Set(['app_state']), depth: 2 };
const APP_STATE = { keys: new Set(['app_state']), depth: 1 };

/** Every golden scenario file's text. */
function scenarios(): Array<[string, string]> {
  const root = join(GOLDEN, 'scenarios');
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => [f, readFileSync(join(root, f), 'utf8')]);
}

/** The value with every DeferredJson parsed in place (recursively). */
function undeferAll(v: unknown): unknown {
  const x = undeferred(v);
  if (Array.isArray(x)) return x.map(undeferAll);
  if (x && typeof x === 'object' && !(x instanceof PyFloat)) return Object.fromEntries(Object.entries(x).map(([k, y]) => [k, undeferAll(y)]));
  return x;
}

/** Python-typed JSON text of a value: floats and ints stay apart. */
const typed = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) => (x instanceof PyFloat ? { float: String(x.value) } : typeof x === 'bigint' ? { bigint: String(x) } : x));

describe('parsePyJson with deferred keys', () => {
  it("gives every golden scenario's exact values, with each app state deferred until read", () => {
    const all = scenarios();
    expect(all.length).toBeGreaterThan(10);
    for (const [name, text] of all) {
      const lazy = parsePyJson(text, { defer: APP_STATES }) as { apps: Array<{ app_state?: unknown }> };
      const states = lazy.apps.map((a) => a.app_state);
      expect(states.some((s) => s instanceof DeferredJson), name).toBe(true);
      for (const s of states) if (s instanceof DeferredJson) expect(s.isParsed, name).toBe(false);
      expect(typed(undeferAll(lazy)), name).toBe(typed(parsePyJson(text)));
    }
  });

  it('defers objects and arrays under the key, at the depth asked only, and parses each once', () => {
    const text = '{"app_state": {"top": 1}, "apps": [{"app_state": null}, {"app_state": [1, 2.0, {"x": "y"}]}, {"app_state": "s"}, {"app_state": {}}, {"o": {"app_state": {"deep": 1}}}]}';
    const v = parsePyJson(text, { defer: APP_STATES }) as { app_state: unknown; apps: Array<{ app_state?: unknown; o?: { app_state: unknown } }> };
    expect(v.app_state).toEqual({ top: 1 });
    expect(v.apps[0]!.app_state).toBeNull();
    expect(v.apps[2]!.app_state).toBe('s');
    expect(v.apps[4]!.o!.app_state).toEqual({ deep: 1 });
    const d = v.apps[1]!.app_state as DeferredJson;
    expect(d).toBeInstanceOf(DeferredJson);
    expect(v.apps[3]!.app_state).toBeInstanceOf(DeferredJson);
    const first = d.value;
    expect(first).toEqual([1, new PyFloat(2), { x: 'y' }]);
    expect(d.value).toBe(first);
    expect(undeferred(v.apps[3]!.app_state)).toEqual({});
  });

  it('a bad token inside a deferred value fails when it is read, with the eager error and position', () => {
    const text = '[{"name": "x",\n "app_state": {"emails": [1, 2,, 3]}, "after": true}]';
    let eager = '';
    try {
      parsePyJson(text);
    } catch (e) {
      eager = (e as Error).message;
    }
    expect(eager).toMatch(/^Expecting value: line 2 column 32 \(char 46\)$/);
    const [v] = parsePyJson(text, { defer: APP_STATE }) as Array<{ app_state: DeferredJson; after: boolean }>;
    expect(v!.after).toBe(true);
    expect(() => v!.app_state.value).toThrow(eager);
  });

  it('what the skip sees fails at once: an unterminated string, a bad escape or control character, an unclosed value', () => {
    expect(() => parsePyJson('[{"app_state": {"a": "b}]', { defer: APP_STATE })).toThrow(/^Unterminated string starting at: line 1 column 22 \(char 21\)$/);
    expect(() => parsePyJson('[{"app_state": {"a": "b\\q"}}]', { defer: APP_STATE })).toThrow(/^Invalid \\escape: line 1 column 24 \(char 23\)$/);
    expect(() => parsePyJson('[{"app_state": {"a": "b\u0001"}}]', { defer: APP_STATE })).toThrow(/^Invalid control character at: line 1 column 24 \(char 23\)$/);
    expect(() => parsePyJson('[{"app_state": {"a": [1, 2]}', { defer: APP_STATE })).toThrow(/^Expecting ',' delimiter: line 1 column 29 \(char 28\)$/);
    // Strings holding brackets and escaped quotes do not confuse the skip.
    const [v] = parsePyJson('[{"app_state": {"a": "}]\\"{[", "b": ["]"]}, "c": 1}]', { defer: APP_STATE }) as Array<{ app_state: DeferredJson; c: number }>;
    expect(v!.c).toBe(1);
    expect(v!.app_state.value).toEqual({ a: '}]"{[', b: [']'] });
  });

  it('whenAllParsed waits for every deferred value, and runs at once when none waits', () => {
    const v = parsePyJson('[{"app_state": {"a": 1}}, {"app_state": [2]}, {"app_state": 3}]', { defer: APP_STATE }) as Array<{ app_state: unknown }>;
    const states = v.map((x) => x.app_state);
    let calls = 0;
    whenAllParsed(states, () => calls++);
    expect(calls).toBe(0);
    undeferred(states[0]);
    expect(calls).toBe(0);
    undeferred(states[1]);
    expect(calls).toBe(1);
    whenAllParsed(states, () => calls++);
    expect(calls).toBe(2);
  });

  it('keeps the text alive while a value is deferred, and lets it go once every one is parsed', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const heap = (): number => (gc(), process.memoryUsage().heapUsed);
    const before = heap();
    // 20 MB of whitespace after two deferred states.
    let text: string | null = `{"apps": [{"app_state": {"k": "${'x'.repeat(40)}"}}, {"app_state": ["\\n${'y'.repeat(40)}"]}],${' '.repeat(20e6)}"n": 1}`;
    const v = parsePyJson(text, { defer: APP_STATES }) as { apps: Array<{ app_state: DeferredJson }> };
    text = null;
    expect(heap() - before).toBeGreaterThan(15e6);
    expect(v.apps[0]!.app_state.value).toEqual({ k: 'x'.repeat(40) });
    expect(heap() - before).toBeGreaterThan(15e6);
    expect(v.apps[1]!.app_state.value).toEqual([`\n${'y'.repeat(40)}`]);
    expect(heap() - before).toBeLessThan(5e6);
  });
});
