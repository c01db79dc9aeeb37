// A scenario's facts come from one read with one set of rules (docs/runner.md, "A scenario's facts").
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DatasetError, loadJsonl, readScenarioEntry, scenarioContent, scenarioParses } from '../../../runner/src/dataset/index.js';
import { sha256File } from '../../../runner/src/fsutil/hash.js';
import { scenarioJson } from './make-scenario.js';

const dir = mkdtempSync(join(tmpdir(), 'facts-'));
const write = (name: string, body: unknown): string => {
  const f = join(dir, name);
  writeFileSync(f, typeof body === 'string' ? body : JSON.stringify(body));
  return f;
};

describe('scenario facts from the one read', () => {
  it('reads id, start time, duration, hash and size by the contract rules', () => {
    const f = write('s1.json', scenarioJson('s1'));
    const e = readScenarioEntry(f, null);
    expect(e).toMatchObject({ id: 's1', startTime: 1760000400, duration: 120, notifyTask: null, sha256: sha256File(f) });
    expect(e.bytes).toBe(Buffer.byteLength(JSON.stringify(scenarioJson('s1'))));
  });

  it('falls back to top-level scenario_id and start_time, then to the file stem', () => {
    const top = readScenarioEntry(write('t.json', { scenario_id: 'top_id', start_time: 1700000000, apps: [], events: [] }), null);
    expect(top).toMatchObject({ id: 'top_id', startTime: 1700000000, duration: null });
    const bare = readScenarioEntry(write('bare_stem.json', { apps: [], events: [] }), null);
    expect(bare).toMatchObject({ id: 'bare_stem', startTime: null });
  });

  it('keeps the first user task only for a scenario without events (the host must notify)', () => {
    const task = { event_type: 'USER', event_id: 'u', action: { app: 'AgentUserInterface', function: 'send_message_to_agent', args: [{ name: 'content', value: 'Book a cab' }] } };
    const none = readScenarioEntry(write('n.json', { apps: [], events: [], completed_events: [task] }), null);
    expect(none.notifyTask).toBe('Book a cab');
    expect(readScenarioEntry(write('w.json', scenarioJson('w')), null).notifyTask).toBeNull();
  });

  it('parses each line of a JSONL file once, hashing the line written out', () => {
    const lines = [JSON.stringify(scenarioJson('j0')), JSON.stringify(scenarioJson('j1'))];
    const before = scenarioParses.count;
    const entries = loadJsonl(write('d.jsonl', lines.join('\n') + '\n'), mkdtempSync(join(tmpdir(), 'jl-')));
    expect(scenarioParses.count - before).toBe(2);
    expect(entries.map((e) => e.sha256)).toEqual(entries.map((e) => sha256File(e.file)));
  });

  it('bad files get an error naming the file and the field', () => {
    const syntax = write('syntax.json', '{"apps": [');
    expect(() => readScenarioEntry(syntax, null)).toThrow(`${syntax}: invalid JSON`);
    const field = write('field.json', scenarioJson('f', { apps: [{ name: 3 }] }));
    expect(() => readScenarioEntry(field, null)).toThrow(`${field}: field "apps.0.name"`);
    expect(() => readScenarioEntry(join(dir, 'missing.json'), null)).toThrow(`cannot read scenario file ${join(dir, 'missing.json')}`);
  });
});

describe('a planned scenario streamed for delivery (scenarioContent)', () => {
  const drain = async (s: NodeJS.ReadableStream): Promise<{ got: Buffer; err: unknown }> => {
    const chunks: Buffer[] = [];
    try {
      for await (const c of s) chunks.push(c as Buffer);
      return { got: Buffer.concat(chunks), err: null };
    } catch (e) {
      return { got: Buffer.concat(chunks), err: e };
    }
  };

  it('gives the planned bytes, opened afresh each time (a retried delivery)', async () => {
    // Bigger than one read chunk (64 KiB): several chunks, the last one held until the hash is known.
    const f = write('big.json', scenarioJson('big', { pad: 'x'.repeat(300_000) }));
    const c = scenarioContent(readScenarioEntry(f, null));
    expect(c.size).toBe(readFileSync(f).length);
    for (let i = 0; i < 2; i++) expect((await drain(c.open())).got.equals(readFileSync(f))).toBe(true);
  });

  it('a file changed since planning: refused at once when its size differs, else by its hash before the last chunk', async () => {
    const f = write('chg.json', scenarioJson('chg', { pad: 'y'.repeat(300_000) }));
    const entry = readScenarioEntry(f, null);
    writeFileSync(f, readFileSync(f, 'utf8') + ' ');
    expect(() => scenarioContent(entry)).toThrow(DatasetError);
    const same = readFileSync(f, 'utf8').slice(0, -1).replace('yyyy', 'zzzz');
    writeFileSync(f, same);
    const { got, err } = await drain(scenarioContent(entry).open());
    expect(err).toBeInstanceOf(DatasetError);
    expect((err as Error).message).toBe(`${f}: the scenario file changed after the run was planned; start the run again`);
    // The receiver never has every byte: it cannot complete the file.
    expect(got.length).toBeLessThan(entry.bytes);
  });

  it('a missing file is an error naming it', () => {
    const f = write('gone.json', scenarioJson('gone'));
    const entry = readScenarioEntry(f, null);
    rmSync(f);
    expect(() => scenarioContent(entry)).toThrow(`cannot read scenario file ${f}`);
  });
});
