// Universe chains in real containers (docs/protocol.md, "Universe chains"): a probe agent layer
// counts its visits in a file of its home and adds a contact each time, so each scenario's reply
// says what the one before it left: the agent's home, the apps' states and a file of the cloud
// drive (in the chain of two Files scenarios) carried from unit to unit, credentials left behind, checkpoints after each judged scenario, a chain resumed by
// --retry from its last checkpoint after the runner was killed, and pass@2 replaying chains.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UnitBackend } from '../../runner/src/engine/index.js';
import { DEFAULT_IMAGE } from '../../runner/src/image/index.js';
import { connectE2eEngine, eachEngine, engineEnv } from './helpers/engines.js';
import { runCli as cli } from './helpers/cli.js';

const root = join(import.meta.dirname, '..', '..');
const world = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
const suffix = world.split(':').pop() ?? 'latest';
const CAB = 'search/search_cab_cheapest_airport.json';
const BOAT = 'time/time_calendar_boat_trip.json';
const KENJI = 'adaptability/adapt_chats_kenji_sync.json';
const TAX = 'execution/exec_files_tax_cleanup.json';
// The one Files scenario of the examples again under another id: a chain holds a scenario once.
const TAX2 = 'execution/exec_files_tax_cleanup_2.json';

// Every turn: how often it was here before (its home), how many of its contacts the apps hold
// (their state), whether a credential it left is still there; then one more of each.
const PROBE = `#!/bin/bash
cat >/dev/null
h=/home/agent
before=0; [[ -f $h/visits.log ]] && before=$(wc -l <"$h/visits.log")
netrc=no; [[ -f $h/.netrc ]] && netrc=yes
n=$(contacts search-contacts --query Chainprobe 2>/dev/null | grep -o 'Visit[0-9]*' | sort -u | wc -l)
echo visit >>"$h/visits.log"
mkdir -p "$h/notes" && echo "visit $before" >"$h/notes/last.txt"
drive=$(cloud-drive cat --path carried.txt 2>/dev/null | grep -o 'drive [0-9]*' | head -n1)
cloud-drive open --path carried.txt --mode w --content "drive $before" >/dev/null 2>&1 || true
echo "machine example.com password hunter2" >"$h/.netrc"
contacts add-new-contact --first-name Chainprobe --last-name "Visit$before" >/dev/null 2>&1 || true
echo "visits before: $before; contacts before: $n; netrc: $netrc; drive: \${drive:-none}"
`;

function dataset(files: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'gaia2-e2e-seq-data-'));
  for (const f of files) {
    mkdirSync(join(dir, f.split('/')[0]!), { recursive: true });
    if (f === TAX2) writeFileSync(join(dir, f), readFileSync(join(root, 'examples/scenarios', TAX), 'utf8').replace('"scenario_id": "exec_files_tax_cleanup"', `"scenario_id": "${idOf(TAX2)}"`));
    else cpSync(join(root, 'examples/scenarios', f), join(dir, f));
  }
  return dir;
}

function sequences(chains: Array<[string, string[]]>): string {
  const file = join(mkdtempSync(join(tmpdir(), 'gaia2-e2e-seq-')), 'chains.jsonl');
  writeFileSync(file, chains.map(([u, ids]) => JSON.stringify({ universe_id: u, scenarios: ids.map((f) => ({ scenario_id: f.split('/')[1]!.replace('.json', '') })) })).join('\n') + '\n');
  return file;
}

const idOf = (f: string) => f.split('/')[1]!.replace('.json', '');
const dirOf = (out: string, f: string, k?: number) => join(out, ...(k ? [`run_${k}`] : []), f.split('/')[0]!, idOf(f));
const readJson = (p: string) => JSON.parse(readFileSync(p, 'utf8')) as Record<string, unknown>;
const reply = (out: string, f: string, k?: number) => {
  const m = /visits before: (\d+); contacts before: (\d+); netrc: (\w+); drive: (none|drive \d+)/.exec(readFileSync(join(dirOf(out, f, k), 'agent_response.txt'), 'utf8'));
  expect(m, `reply of ${f}`).not.toBeNull();
  return { visits: Number(m![1]), contacts: Number(m![2]), netrc: m![3], drive: m![4] };
};

/** The names in a checkpoint (a gzipped tar: 512-byte headers, the name first). */
function checkpointNames(file: string): string[] {
  const tar = gunzipSync(readFileSync(file));
  const names: string[] = [];
  for (let at = 0; at + 512 <= tar.length; ) {
    const name = tar.subarray(at, at + 100).toString('utf8').replace(/\0.*$/s, '');
    if (!name) break;
    names.push(name);
    const size = parseInt(tar.subarray(at + 124, at + 136).toString('utf8').replace(/\0.*$/s, '').trim() || '0', 8);
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return names;
}

describe.each(eachEngine())('universe chains on %s (real containers)', (_kind, e) => {
  let engine: UnitBackend;
  const probe = `localhost/gaia2-chain-probe:${suffix}`;
  const common = ['--image', probe, '--agent', 'external', '--timeout', '300'];

  beforeAll(async () => {
    engine = await connectE2eEngine(e);
    const ctx = mkdtempSync(join(tmpdir(), 'gaia2-e2e-chain-probe-'));
    writeFileSync(join(ctx, 'agent'), PROBE, { mode: 0o755 });
    writeFileSync(
      join(ctx, 'Dockerfile'),
      'ARG WORLD_IMAGE\nFROM ${WORLD_IMAGE}\nCOPY agent /opt/gaia2-agent/bin/agent\nLABEL gaia2.agent.name=chain-probe gaia2.agent.version=0.1.0\nENV GAIA2_AGENT=external\n',
    );
    await engine.images!.build({ contextDir: ctx, tag: probe, buildArgs: { WORLD_IMAGE: world } });
  }, 600_000);
  afterAll(async () => {
    await engine?.close();
  });

  it('carries the home, the app state and the drive along a chain, chains in parallel, pass@2 replays them whole', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'gaia2-e2e-seq-')), 'run');
    const seq = sequences([
      ['u-contacts', [CAB, BOAT]],
      ['u-files', [TAX, TAX2]],
    ]);
    const r = await cli(e, ['run-dataset', ...common, '-d', dataset([CAB, BOAT, TAX, TAX2]), '--sequences', seq, '--output-dir', out, '-j', '2', '--pass-at', '2']);
    expect(r.code, r.err + r.out).toBe(0);
    for (const k of [1, 2]) {
      const first = reply(out, CAB, k);
      const second = reply(out, BOAT, k);
      // Each run_k starts from the scenarios' own states: nothing of run_1 reaches run_2.
      expect(first).toEqual({ visits: 0, contacts: 0, netrc: 'no', drive: 'none' });
      expect(second.visits).toBeGreaterThanOrEqual(1);
      // every visit added one contact: the apps' state came along with the home
      expect(second.contacts).toBe(second.visits);
      // The other chain starts from nothing of this one; its second scenario reads in the drive
      // what the turn before it wrote there (the last turn of the scenario before).
      const [t1, t2] = [reply(out, TAX, k), reply(out, TAX2, k)];
      expect(t1).toMatchObject({ visits: 0, drive: 'none' });
      expect(t2.visits).toBeGreaterThanOrEqual(1);
      expect(t2.drive).toBe(`drive ${t2.visits - 1}`);
      expect(readJson(join(dirOf(out, TAX2, k), 'result.json')).carry_error).toBeUndefined();
      expect(checkpointNames(join(out, `run_${k}`, 'sequential_state', 'u-files', `0_${idOf(TAX)}.tar.gz`))).toContain('carry/drive/carried.txt');
      const a = readJson(join(dirOf(out, CAB, k), 'result.json'));
      const b = readJson(join(dirOf(out, BOAT, k), 'result.json'));
      expect([a.universe_id, a.universe_position, b.universe_id, b.universe_position]).toEqual(['u-contacts', 0, 'u-contacts', 1]);
      expect(b.carry_error).toBeUndefined();
      expect(a.status === 'error' || b.status === 'error').toBe(false);
      const ckpt = join(out, `run_${k}`, 'sequential_state', 'u-contacts', `0_${idOf(CAB)}.tar.gz`);
      const names = checkpointNames(ckpt);
      expect(names).toEqual(expect.arrayContaining(['carry/state/contacts.json', 'carry/home/visits.log', 'carry/home/notes/last.txt']));
      expect(names.some((n) => n.includes('.netrc') || n.includes('events.jsonl') || n.includes('daemon_status'))).toBe(false);
      expect(existsSync(join(out, `run_${k}`, 'sequential_state', 'u-contacts', `1_${idOf(BOAT)}.tar.gz`))).toBe(true);
    }
    const rows = readFileSync(join(out, 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows.filter((x) => x.universe_id === 'u-contacts')).toHaveLength(4);
  }, 900_000);

  it('--retry resumes a killed chain from its last checkpoint', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'gaia2-e2e-seq-kill-')), 'run');
    const data = dataset([CAB, BOAT, KENJI]);
    const seq = sequences([['u-kill', [CAB, BOAT, KENJI]]]);
    const args = ['run-dataset', ...common, '-d', data, '--sequences', seq, '--output-dir', out];
    const child = spawn('node', [join(root, 'bin/gaia2-runner.mjs'), ...args], { cwd: root, env: engineEnv(e), stdio: 'ignore' });
    const first = join(out, 'sequential_state', 'u-kill', `0_${idOf(CAB)}.tar.gz`);
    const deadline = Date.now() + 600_000;
    while (!existsSync(first) && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 200));
    expect(existsSync(first)).toBe(true);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const kept = readJson(join(dirOf(out, CAB), 'result.json'));

    const r = await cli(e, [...args, '--retry']);
    expect(r.code, r.err + r.out).toBe(0);
    expect(r.out + r.err).toMatch(/1 chain\(s\) resumed/);
    // The judged first scenario is kept as it was; the rest played on from its checkpoint.
    expect(readJson(join(dirOf(out, CAB), 'result.json')).started_at).toBe(kept.started_at);
    const [a, b, c] = [reply(out, CAB), reply(out, BOAT), reply(out, KENJI)];
    expect(a.visits).toBe(0);
    expect(b.visits).toBeGreaterThanOrEqual(1);
    expect(c.visits).toBeGreaterThan(b.visits);
    expect(c.contacts).toBeGreaterThan(b.contacts);
    for (const f of [BOAT, KENJI]) expect(readJson(join(dirOf(out, f), 'result.json')).carry_error).toBeUndefined();
    expect(existsSync(join(out, 'sequential_state', 'u-kill', `2_${idOf(KENJI)}.tar.gz`))).toBe(true);
  }, 900_000);
});
