// The daemon's app states in memory (MemoryStates) against the reference's read-modify-write
// of the state files (FileStates): every golden transcript replayed both ways gives the same
// outputs (asserted by the replay) and, once the memory side persists, the same state file
// bytes; state files are not written per command; a failed command or a shared object cannot
// leak into later commands.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileStates, MemoryStates, StateRuleError, detached } from '../../../agent-image/src/apps/framework/state-store.js';
import { stateText } from '../../../agent-image/src/apps/framework/state.js';
import { viewOf } from '../../../agent-image/src/apps/framework/state-views.js';
import { DeferredJson, PyFloat, parsePyJson, pyJsonValue } from '../../../agent-image/src/contract/pyjson.js';
import { loadTranscript, replayTranscript, type ReplayOptions } from './golden.js';
import { makeWorld } from './world.js';

const maskTimes = (text: string): string =>
  text.replace(/"created": \d+\.\d+(e[+-]\d+)?/g, '"created": "<FILE_CTIME>"').replace(/"modified": \d+\.\d+(e[+-]\d+)?/g, '"modified": "<FILE_MTIME>"');
const TRANSCRIPTS: Array<[string, ReplayOptions]> = [
  ['cabs-1.json', {}],
  ['calendar-1.json', { setSteps: [10] }],
  ['chats-1.json', { setSteps: [16] }],
  ['city-1.json', {}],
  ['cloud-drive-1.json', { normalise: maskTimes }],
  ['contacts-1.json', {}],
  ['emails-1.json', {}],
  ['messages-1.json', { setSteps: [19] }],
  ['rent-a-flat-1.json', {}],
  ['shopping-1.json', {}],
];

/** The app state files of a state dir (events.jsonl and the drive aside), text with the dir masked. */
function stateFiles(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of readdirSync(dir).sort()) {
    if (f.endsWith('.json') && statSync(join(dir, f)).isFile()) out[f] = readFileSync(join(dir, f), 'utf8').split(dir).join('<STATE_DIR>');
  }
  return out;
}

describe('app states in memory (MemoryStates)', () => {
  for (const [name, opts] of TRANSCRIPTS) {
    it(`${name}: same outputs, and the persisted files equal read-modify-write's`, async () => {
      const t = loadTranscript(name);
      const fileDir = await replayTranscript(t, { ...opts, states: new FileStates() });
      const states = new MemoryStates({ verify: true });
      const memDir = await replayTranscript(t, { ...opts, states });
      const seeded = stateFiles(memDir);
      const writes = t.steps.filter((s) => s.exit_code === 0 && s.events.some((e) => /"w": true/.test(e))).length;
      const written = states.persist();
      // Nothing was written while the commands ran (cloud-drive's writes go to the drive itself).
      if (writes > 0 && t.app !== 'cloud-drive') expect(written.length).toBeGreaterThan(0);
      expect(stateFiles(memDir)).toEqual(stateFiles(fileDir));
      if (written.length > 0) expect(stateFiles(memDir)).not.toEqual(seeded);
      // A second persist has nothing left to write.
      expect(states.persist()).toEqual([]);
    });
  }

  it('a failed command that changed its loaded state is caught in verify mode', () => {
    const s = new MemoryStates({ verify: true });
    s.seed('/nonexistent/a.json', { items: [1] });
    s.begin();
    (s.load('/nonexistent/a.json')!.items as number[]).push(2);
    expect(() => s.end(false)).toThrow(StateRuleError);
    s.begin();
    (s.load('/nonexistent/a.json')!.items as number[]).push(3);
    expect(() => s.end(true)).not.toThrow();
  });

  it('a state holding one object in two places is refused in verify mode (the file would hold two copies)', () => {
    const s = new MemoryStates({ verify: true });
    const ride = { ride_id: 'r1', status: 'BOOKED', price: new PyFloat(12) };
    s.begin();
    expect(() => s.save('/nonexistent/cab.json', { ride_history: [ride], on_going_ride: ride })).toThrow(/on_going_ride is the same object/);
    // Values such as PyFloat may be shared.
    const price = new PyFloat(3);
    expect(() => s.save('/nonexistent/cab.json', { a: { price }, b: { price } })).not.toThrow();
    expect(stateText(s.load('/nonexistent/cab.json'))).toContain('"price": 3.0');
  });

  it('cabs: a ride booked from a quotation, then changed, stays apart in the stored histories', async () => {
    const w = await makeWorld([['Cabs', 'Cabs', {}]]);
    const states = new MemoryStates({ verify: true });
    const ctx = { stateDir: w.stateDir, simTime: '2024-10-15 07:00:00', states };
    const { runCli } = await import('../../../agent-image/src/apps/index.js');
    const cmd = async (...argv: string[]) => {
      const r = await runCli(argv, ctx);
      expect(r.exitCode, r.stderr).toBe(0);
      return r;
    };
    await cmd('cabs', 'order-ride', '--start-location', 'Home', '--end-location', 'Airport', '--service-type', 'Default');
    await cmd('cabs', 'user-cancel-ride');
    states.persist();
    const file = JSON.parse(readFileSync(join(w.stateDir, 'cab_app.json'), 'utf8')) as { ride_history: Array<{ status: string }>; quotation_history: Array<{ status: string }> };
    expect(file.ride_history.at(-1)!.status).not.toBe(file.quotation_history.at(-1)!.status);
  });

  it("views of a state are kept across commands, and dropped when a command that loaded it fails", () => {
    const s = new MemoryStates();
    s.seed('/nonexistent/a.json', { items: [1] });
    const view = (): { n: number } => viewOf(s.load('/nonexistent/a.json')!, 'v', () => ({ n: 1 }));
    s.begin();
    view().n = 2;
    s.end(true);
    s.begin();
    expect(view().n).toBe(2);
    view().n = 3;
    s.end(false);
    s.begin();
    expect(view().n).toBe(1);
    s.end(true);
  });

  it('detached copies arrays and plain objects, keeps values such as PyFloat, and a "__proto__" key stays a key', () => {
    const f = new PyFloat(1);
    const src = JSON.parse('{"a": [{"b": 1}], "__proto__": {"x": 1}}') as Record<string, unknown>;
    src.f = f;
    const copy = detached(src);
    expect(copy).toEqual(src);
    expect(copy.a).not.toBe(src.a);
    expect(copy.f).toBe(f);
    expect(Object.keys(copy)).toContain('__proto__');
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
  });

  it("an events line keeps the value a command returned, whatever later commands do to the state", async () => {
    const w = await makeWorld([['Contacts', 'Contacts', { contacts: { c1: { first_name: 'Ana', last_name: 'Lee', contact_id: 'c1', is_user: false } }, view_limit: 10 }]]);
    const states = new MemoryStates({ verify: true });
    const ctx = { stateDir: w.stateDir, simTime: '2024-10-15 07:00:00', states };
    const { runCli } = await import('../../../agent-image/src/apps/index.js');
    const got = await runCli(['contacts', 'get-contact', '--contact-id', 'c1'], ctx);
    expect(got.exitCode).toBe(0);
    const edit = await runCli(['contacts', 'edit-contact', '--contact-id', 'c1', '--updates', '{"first_name": "Bea"}'], ctx);
    expect(edit.exitCode, edit.stderr).toBe(0);
    expect((pyJsonValue(got.events[0]!.ret) as { first_name: string }).first_name).toBe('Ana');
    expect(JSON.parse((await runCli(['contacts', 'get-contact', '--contact-id', 'c1'], ctx)).stdout).first_name).toBe('Bea');
  });

  it('a state seeded deferred is parsed on its first load or by parseDeferred, one at a time; a bad one names its file', () => {
    const text = '{"apps": [{"app_state": {"n": 1.0}}, {"app_state": {"m": [1]}}, {"app_state": {"bad": [1,, 2]}}]}';
    const [a, b, bad] = (parsePyJson(text, { defer: { keys: new Set(['app_state']), depth: 2 } }) as { apps: Array<{ app_state: DeferredJson }> }).apps.map((x) => x.app_state);
    const s = new MemoryStates();
    s.seed('/s/a.json', a!);
    s.seed('/s/b.json', b!);
    expect(s.deferredFiles).toEqual(['/s/a.json', '/s/b.json']);
    expect(s.load('/s/b.json')).toEqual({ m: [1] });
    expect(a!.isParsed).toBe(false);
    expect(s.deferredFiles).toEqual(['/s/a.json']);
    expect(s.parseDeferred()).toBe(true);
    expect(a!.isParsed).toBe(true);
    expect(s.load('/s/a.json')).toBe(a!.value);
    expect(s.parseDeferred()).toBe(false);
    s.seed('/s/bad.json', bad!);
    expect(() => s.load('/s/bad.json')).toThrow("the scenario's state for /s/bad.json is not valid JSON: Expecting value: line 1 column 90 (char 89)");
    expect(() => s.parseDeferred()).toThrow(/bad\.json/);
  });
});
