// `gaia2-runner world init|exec` as a subprocess: prints what the app CLI prints, exits with
// its code, and appends the events line to <state-dir>/events.jsonl.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../../..');
const BIN = join(ROOT, 'bin/gaia2-runner.mjs');

function cli(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    env: { ...process.env, GAIA2_RUNNER_FROM_SOURCE: '1', ...env },
    timeout: 60_000,
  });
  return { stdout: r.stdout, stderr: r.stderr, code: r.status };
}

describe('gaia2-runner world', () => {
  it('initialises a state dir and executes app commands against it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gaia2-world-'));
    const golden = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/golden/cli/contacts-1.json'), 'utf8')) as {
      seed: Record<string, unknown>;
      class_names: Record<string, string>;
      steps: Array<{ argv: string[]; stdout: string; stderr: string; exit_code: number; events: string[] }>;
    };
    const scenario = join(dir, 'scenario.json');
    const apps = Object.entries(golden.seed).map(([name, app_state]) => ({ name, class_name: golden.class_names[name], app_state }));
    writeFileSync(scenario, JSON.stringify({ apps }));
    const stateDir = join(dir, 'state');

    const init = cli(['world', 'init', '--scenario', scenario, '--state-dir', stateDir]);
    expect(init.stderr).toBe('');
    expect(init.code).toBe(0);
    expect(init.stdout).toBe(`Initialized 1 app(s): Contacts\nState directory: ${stateDir}\n`);

    const time = '2024-10-15 07:00:00';
    const ok = golden.steps[0]!; // get-current-user-details
    const r = cli(['world', 'exec', '--state-dir', stateDir, '--time', time, '--', ...ok.argv]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(ok.stdout);
    expect(readFileSync(join(stateDir, 'events.jsonl'), 'utf8')).toBe(ok.events.map((l) => l + '\n').join(''));

    const bad = golden.steps[5]!; // get-contact of an unknown id
    const e = cli(['world', 'exec', '--state-dir', stateDir, '--time', time, '--', ...bad.argv]);
    expect(e.code).toBe(1);
    expect(e.stdout).toBe('');
    expect(e.stderr.trimEnd()).toBe(bad.stderr);

    expect(readFileSync(join(stateDir, 'events.jsonl'), 'utf8').trim().split('\n')).toHaveLength(1);

    // GAIA2_EVENT_ID stamps the line as event_id (between ret and sim_t); empty means none.
    const read = ['world', 'exec', '--state-dir', stateDir, '--time', time, '--', ...ok.argv];
    expect(cli(read, { GAIA2_EVENT_ID: 'Event-ENV-7f3a' }).code).toBe(0);
    expect(cli(read, { GAIA2_EVENT_ID: '' }).code).toBe(0);
    expect(cli([...read.slice(0, 6), '--event-id', 'Event-ENV-flag', ...read.slice(6)], { GAIA2_EVENT_ID: 'Event-ENV-env' }).code).toBe(0);
    const lines = readFileSync(join(stateDir, 'events.jsonl'), 'utf8').trim().split('\n').slice(1);
    const base = ok.events[0]!.replace(/, "sim_t": .*$/, '');
    expect(lines).toEqual([
      `${base}, "event_id": "Event-ENV-7f3a", "sim_t": "${time}"}`,
      ok.events[0],
      `${base}, "event_id": "Event-ENV-flag", "sim_t": "${time}"}`,
    ]);

    const badTime = cli(['world', 'exec', '--state-dir', stateDir, '--time', 'tomorrow', '--', 'contacts', 'get-contacts']);
    expect(badTime.code).toBe(2);
    expect(badTime.stderr).toContain('--time');
  }, 120_000);
});
