// Bad input of every kind → a clear message naming the file/field, exit code 2, and nothing
// launched. DOCKER_HOST points at a socket that does not exist: had the runner got as far as
// the engine, it would exit 1 with an engine error instead. The cases run the real command
// tree in-process (fast); two spawn the binary to pin the process exit codes.
import { spawn } from 'node:child_process';
import { runCliInProcess } from './in-process-cli.js';
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeHub, scenarioParquet, type FakeHub } from '../../helpers/fake-hub/index.js';
import { scenarioJson, writeScenario } from '../dataset/make-scenario.js';

const BIN = resolve('bin/gaia2-runner.mjs');
const dir = mkdtempSync(join(tmpdir(), 'bad-'));
let hub: FakeHub;

function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((res) => {
    const p = spawn(process.execPath, [BIN, ...args], {
      cwd: dir,
      env: { PATH: process.env.PATH!, HOME: dir, GAIA2_RUNNER_FROM_SOURCE: '1', DOCKER_HOST: `unix://${dir}/no-engine.sock`, GAIA2_HF_CACHE: join(dir, 'hf'), ...env },
    });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    p.on('close', (code) => res({ code, out, err }));
  });
}

const file = (name: string, text: string) => {
  mkdirSync(join(dir, name, '..'), { recursive: true });
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};
const toml = (body: string) => file(`c${Math.random().toString(36).slice(2)}.toml`, body);
const GOOD_TARGET = '[target]\nscenario = "ok.json"\n';
const ORACLE = '[agent]\nname = "oracle"\n';

beforeAll(async () => {
  writeScenario(join(dir, 'ok.json'), 'ok');
  writeScenario(join(dir, 'ds/search/good.json'), 'good');
  hub = await startFakeHub();
  hub.setFile('org/bad-rows', 'search/test-00000-of-00001.parquet', scenarioParquet([{ scenario_id: 'x', scenario: JSON.stringify({ ...scenarioJson('x'), events: 'not a list' }) }]));
});
afterAll(async () => {
  await hub.stop();
});

const cases: Array<[string, () => string[], RegExp, Record<string, string>?]> = [
  ['TOML syntax error', () => ['run-config', '--config', toml('[target\n')], /:1:\d+: invalid TOML/],
  ['unknown key with suggestion', () => ['run-config', '--config', toml(`${GOOD_TARGET}${ORACLE}[run]\ntimout = 5\n`)], /\[run\] has unknown field\(s\): timout \(did you mean "timeout"\?\)/],
  ['unknown table', () => ['run-config', '--config', toml(`${GOOD_TARGET}${ORACLE}[runn]\n`)], /unknown .*runn \(did you mean "run"\?\)/],
  ['string for an integer', () => ['run-config', '--config', toml(`${GOOD_TARGET}${ORACLE}[run]\ntimeout = "10"\n`)], /\[run\]\.timeout must be an integer \(got "10"\)/],
  ['float for an integer', () => ['run-config', '--config', toml(`${GOOD_TARGET}${ORACLE}[run]\nhealth_timeout = 1.5\n`)], /\[run\]\.health_timeout must be an integer/],
  ['missing [agent] table', () => ['run-config', '--config', toml(GOOD_TARGET)], /\[agent\] table is missing/],
  ['unset api_key_env', () => ['run-config', '--config', toml(`${GOOD_TARGET}[agent]\nprovider = "openai"\nmodel = "m"\napi_key_env = "NOT_SET_ANYWHERE"\n`)], /api_key_env references an unset env var: NOT_SET_ANYWHERE/],
  ['unknown split', () => ['run-config', '--config', toml(`[target]\ndataset_root = "ds"\nsplits = ["searh"]\n${ORACLE}`)], /Unknown split\(s\) in \[target\]\.splits: searh/],
  ['scenario: invalid JSON', () => ['run', '-s', file('broken.json', '{"metadata": '), '--agent', 'oracle'], /broken\.json: invalid JSON/],
  ['scenario: events not a list', () => ['run', '-s', file('wrong.json', JSON.stringify({ ...scenarioJson('w'), events: { a: 1 } })), '--agent', 'oracle'], /wrong\.json: field "events"/],
  ['scenario: a JSON array', () => ['run', '-s', file('arr.json', '[1,2]'), '--agent', 'oracle'], /arr\.json: a scenario must be a JSON object/],
  ['dataset dir with a torn file', () => ['run-dataset', '-d', (file('torn/search/t.json', '{"metadata": {"defin'), join(dir, 'torn')), '--agent', 'oracle'], /torn\/search\/t\.json: invalid JSON/],
  ['jsonl with a bad line', () => ['run-dataset', '-d', file('set.jsonl', JSON.stringify(scenarioJson('a')) + '\n{oops\n'), '--agent', 'oracle'], /set\.jsonl:2: invalid JSON/],
  ['manifest: ids not a list', () => ['run-dataset', '-d', join(dir, 'ds'), '--agent', 'oracle', '--subset', file('m1.json', '{"splits": {"search": "good"}}')], /m1\.json: subset manifest field "splits\.search" must be a list of scenario ids/],
  ['manifest: invalid JSON', () => ['run-dataset', '-d', join(dir, 'ds'), '--agent', 'oracle', '--subset', file('m2.json', '{"splits": ')], /m2\.json: invalid JSON/],
  ['parquet row with a bad scenario', () => ['run-dataset', '-d', 'org/bad-rows', '--splits', 'search', '--agent', 'oracle'], /search\/test-00000-of-00001\.parquet row 0 \(scenario x\): field "events"/],
  ['--pass-at 0', () => ['run-dataset', '-d', join(dir, 'ds'), '--agent', 'oracle', '--pass-at', '0'], /--pass-at must be >= 1/],
  ['--concurrency not a number', () => ['run-dataset', '-d', join(dir, 'ds'), '--agent', 'oracle', '-j', 'many'], /--concurrency must be an integer/],
  ['missing --env-file', () => ['--env-file', join(dir, 'nope.env'), 'run', '-s', join(dir, 'ok.json'), '--agent', 'oracle'], /env file does not exist/],
  ['--agent scripted without --script', () => ['run', '-s', join(dir, 'ok.json'), '--agent', 'scripted'], /--script is required when --agent = scripted/],
  ['--retry on a scenario target', () => ['run-config', '--config', toml(`${GOOD_TARGET}${ORACLE}`), '--retry'], /--retry is only supported for dataset targets/],
];

describe('malformed inputs → exit 2, nothing launched', () => {
  it.each(cases)('%s', async (_name, args, message, env) => {
    const r = await runCliInProcess(args(), dir, { HF_ENDPOINT: hub.url, ...env });
    expect(r.err).toMatch(message);
    expect(r.err).not.toMatch(/container engine|socket|ECONNREFUSED/i);
    expect(r.code).toBe(2);
  });

  it('the binary exits 2 on bad input', async () => {
    const r = await cli(['run-config', '--config', toml(`${GOOD_TARGET}${ORACLE}[run]\ntimout = 5\n`)]);
    expect(r.err).toMatch(/did you mean "timeout"/);
    expect(r.code).toBe(2);
  }, 60_000);

  it('the binary: --version prints the package version; a usage error exits 2; a typo\'d provider fails --dry-run with 2', async () => {
    const v = await cli(['--version']);
    expect({ code: v.code, out: v.out.trim() }).toEqual({ code: 0, out: JSON.parse(readFileSync(join(import.meta.dirname, '../../../package.json'), 'utf8')).version });
    const u = await cli(['report', '--output-dir', dir, '--no-such-flag']);
    expect(u.code).toBe(2);
    expect(u.err).toMatch(/unknown option '--no-such-flag'/);
    const t = await cli(['run-config', '--config', toml(`${GOOD_TARGET}[agent]\nprovider = "antropic"\nmodel = "m"\n`), '--dry-run'], { ANTHROPIC_API_KEY: 'sk-x' });
    expect(t.code).toBe(2);
    expect(t.err).toContain('did you mean anthropic');
  }, 60_000);

  it('control: valid input reaches the engine (and fails there: no engine is an infrastructure error, exit 3)', async () => {
    const r = await cli(['run', '-s', join(dir, 'ok.json'), '--agent', 'oracle']);
    expect(r.code).toBe(3);
    expect(r.err.length).toBeGreaterThan(0);
  }, 60_000);
});
