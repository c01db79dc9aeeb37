// `gaia2-runner agents`: every adapter's package, its pin and the registry's newest release,
// asked of a registry double with the real npm client (the real CLI in a child process).
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAdapters } from '../../../../runner/src/agents/index.js';
import { listAgents } from '../../../../runner/src/cli/commands/agents.js';
import { npmEnvFor, startNpmRegistryDouble, type NpmRegistryDouble } from '../../../helpers/npm-registry-double.js';

const root = join(import.meta.dirname, '..', '..', '..', '..');
const run = promisify(execFile);
let reg: NpmRegistryDouble;
let env: NodeJS.ProcessEnv;
const all = listAdapters();
// acp's program is the user's (its package option): it has no pin and nothing to look up
const adapters = all.filter((a) => a.name !== 'acp');
// the registry has a newer release for all but the last adapter, which it does not know at all
const known = adapters.slice(0, -1);
const missing = adapters.at(-1)!;

beforeAll(async () => {
  reg = await startNpmRegistryDouble(known.map((a) => ({ name: a.package.name, version: '9999.1.0', files: { 'a.txt': a.name } })));
  env = npmEnvFor(reg.url, mkdtempSync(join(tmpdir(), 'agents-npm-')));
});
afterAll(() => reg.close());

describe('agents', () => {
  it("lists each adapter with its pin and the registry's newest; a failed lookup is named, not fatal", async () => {
    const rows = await listAgents({ env });
    expect(rows.map((r) => r.name)).toEqual(all.map((a) => a.name));
    expect(rows.find((r) => r.name === 'acp')).toMatchObject({ package: '(option package)', pinned: '-', newest: null, options: expect.arrayContaining(['package', 'command', 'env']) });
    expect(rows.find((r) => r.name === 'acp')!.lookup_error).toBeUndefined();
    for (const a of known) expect(rows.find((r) => r.name === a.name)).toMatchObject({ package: a.package.name, pinned: a.package.version, newest: '9999.1.0', providers: [...a.providers] });
    const m = rows.find((r) => r.name === missing.name)!;
    expect(m.newest).toBeNull();
    expect(m.lookup_error).toContain(missing.package.name);
  });

  it('--offline asks the registry nothing', async () => {
    const before = reg.requests.length;
    const rows = await listAgents({ offline: true, env });
    expect(rows.every((r) => r.newest === null && !r.lookup_error)).toBe(true);
    expect(reg.requests.length).toBe(before);
  });

  it('the CLI prints the table (and --json the same rows)', async () => {
    const cli = join(root, 'bin', 'gaia2-runner.mjs');
    const { stdout, stderr } = await run(process.execPath, [cli, 'agents'], { env, cwd: root });
    expect(stdout.split('\n')[0]).toMatch(/^agent\s+package\s+pinned\s+newest\s+providers\s+options$/);
    for (const a of known) expect(stdout).toMatch(new RegExp(`^${a.name}\\s+${a.package.name.replace(/[/.]/g, '\\$&')}\\s+${a.package.version.replace(/\./g, '\\.')}\\s+9999\\.1\\.0\\s`, 'm'));
    expect(stdout).toMatch(new RegExp(`^${missing.name}\\s.*\\sunknown\\s`, 'm'));
    expect(stderr).toContain(`${missing.name}: the npm registry did not say`);
    const json = JSON.parse((await run(process.execPath, [cli, 'agents', '--json', '--offline'], { env, cwd: root })).stdout) as Array<{ name: string; pinned: string }>;
    expect(json.map((r) => [r.name, r.pinned])).toEqual(all.map((a) => [a.name, a.name === 'acp' ? '-' : a.package.version]));
    expect(stdout).toMatch(/^acp\s+\(option package\)\s+-\s+unknown\s/m);
  }, 60_000);
});
