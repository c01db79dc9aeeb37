// verify over a real recorded run (the codex fixture): sealed digests, an untouched directory
// passes, an edited artifact or a changed verdict names its run, pass@k layouts included.
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalJson, datasetDigest, digestOf, readDigests, writeDigests } from '../../../runner/src/provenance/index.js';
import { verifyRunDir } from '../../../runner/src/verify/index.js';

const root = join(import.meta.dirname, '..', '..', '..');
const FIXTURE = join(root, 'test/fixtures/third-party-runs/codex');
const RUN = 'exec_shopping_bottle_order';
const SCENARIO = join(root, 'examples/scenarios/execution/exec_shopping_bottle_order.json');

/** The fixture run in a fresh directory (under `sub` for a pass@k run_k), its scenario beside it. */
function runDir(subs: string[] = ['.']): string {
  const dir = mkdtempSync(join(tmpdir(), 'gaia2-verify-'));
  for (const sub of subs) {
    cpSync(FIXTURE, join(dir, sub), { recursive: true });
    cpSync(SCENARIO, join(dir, sub, RUN, 'scenario.json'));
  }
  return dir;
}

const editJson = (file: string, edit: (o: Record<string, unknown>) => void) => {
  const o = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  edit(o);
  writeFileSync(file, JSON.stringify(o));
};

describe('digests', () => {
  it('canonical JSON ignores key order, so equal settings digest equally', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe('{"a":{"c":null,"d":[1,{"x":1,"y":2}]},"b":1}');
    expect(digestOf({ a: 1, b: 2 })).toBe(digestOf({ b: 2, a: 1 }));
    expect(digestOf({ a: 1 })).not.toBe(digestOf({ a: 2 }));
    expect(datasetDigest({ 'x/s1': 'aa' })).not.toBe(datasetDigest({ 'x/s1': 'ab' }));
  });

  it('seals every artifact of each scenario run with its verdict', async () => {
    const dir = runDir();
    const m = await writeDigests(dir);
    expect(readDigests(dir)).toEqual(m);
    expect(m.runs[RUN]!.verdict).toBe('pass');
    expect(Object.keys(m.runs[RUN]!.files).sort()).toEqual(['events.jsonl', 'result.json', 'scenario.json', 'trace.jsonl']);
    expect(m.runs[RUN]!.files['events.jsonl']).toMatch(/^[0-9a-f]{64}$/);
    expect(m.judge_sha256).toBe(digestOf(null));
  });
});

describe('verifyRunDir', () => {
  it('passes on an untouched run, re-judging its verdict offline', async () => {
    const dir = runDir();
    await writeDigests(dir);
    expect(await verifyRunDir(dir)).toEqual({ runs: 1, rejudged: 1, issues: [] });
  });

  it('fails without digests.json', async () => {
    const out = await verifyRunDir(runDir());
    expect(out.issues).toEqual([{ run: '.', what: expect.stringContaining('no digests.json') }]);
  });

  it('names the run whose artifact was edited', async () => {
    const dir = runDir();
    await writeDigests(dir);
    writeFileSync(join(dir, RUN, 'trace.jsonl'), `${readFileSync(join(dir, RUN, 'trace.jsonl'), 'utf8')}{}\n`);
    expect((await verifyRunDir(dir)).issues).toEqual([{ run: RUN, what: 'artifact trace.jsonl changed' }]);
  });

  it('names a run whose recorded verdict no longer matches the re-judged one', async () => {
    const dir = runDir();
    await writeDigests(dir);
    editJson(join(dir, RUN, 'result.json'), (o) => {
      o.success = false;
      o.status = 'fail';
    });
    const { issues } = await verifyRunDir(dir);
    expect(issues).toContainEqual({ run: RUN, what: 'verdict differs: recorded fail, re-judged pass' });
    expect(issues).toContainEqual({ run: RUN, what: 'verdict fail in result.json, pass when sealed' });
    expect(issues).toContainEqual({ run: RUN, what: 'artifact result.json changed' });
  });

  it('names a changed judge setting, and an event log that no longer passes', async () => {
    const dir = runDir();
    await writeDigests(dir);
    editJson(join(dir, 'run_config.json'), (o) => {
      o.image_id = 'sha256:other';
    });
    // Drop the agent's writes (cart, checkout): the hard checks can no longer pass.
    const events = join(dir, RUN, 'events.jsonl');
    writeFileSync(events, readFileSync(events, 'utf8').split('\n').filter((l) => !l.includes('"w": true')).join('\n'));
    const { issues } = await verifyRunDir(dir);
    expect(issues).toContainEqual({ run: '.', what: expect.stringContaining('image id sha256:other in run_config.json') });
    expect(issues).toContainEqual({ run: RUN, what: 'artifact events.jsonl changed' });
    expect(issues).toContainEqual({ run: RUN, what: expect.stringMatching(/^verdict differs: recorded pass, re-judged (fail|error)$/) });
  });

  it("verifies a root whose folders are sealed (a gaia2-run root's phases), naming runs by their path", async () => {
    const dir = runDir(['standard', 'noise']);
    await writeDigests(join(dir, 'standard'));
    await writeDigests(join(dir, 'noise'));
    expect(await verifyRunDir(dir)).toEqual({ runs: 2, rejudged: 2, issues: [] });
    writeFileSync(join(dir, 'noise', RUN, 'trace.jsonl'), '{}\n');
    expect((await verifyRunDir(dir)).issues).toEqual([{ run: `noise/${RUN}`, what: 'artifact trace.jsonl changed' }]);
  });

  it('covers every run_k of a pass@k directory and names the edited one', async () => {
    const dir = runDir(['run_1', 'run_2']);
    const m = await writeDigests(dir);
    expect(Object.keys(m.runs).sort()).toEqual([`run_1/${RUN}`, `run_2/${RUN}`]);
    expect(await verifyRunDir(dir)).toEqual({ runs: 2, rejudged: 2, issues: [] });
    writeFileSync(join(dir, 'run_2', RUN, 'events.jsonl'), `${readFileSync(join(dir, 'run_2', RUN, 'events.jsonl'), 'utf8')}\n`);
    expect((await verifyRunDir(dir)).issues).toEqual([{ run: `run_2/${RUN}`, what: 'artifact events.jsonl changed' }]);
  });
});
