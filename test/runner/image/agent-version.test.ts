// The registry's newest release of an agent (runner/src/image/agent-version.ts), asked with the
// real npm client of a registry double that serves the npm registry's documents (dist-tags).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newestVersion, settleAgentVersion } from '../../../runner/src/image/agent-version.js';
import { fixtureAdapter } from '../agents/fixture-adapter.js';
import { npmEnvFor, startNpmRegistryDouble, type NpmRegistryDouble } from '../../helpers/npm-registry-double.js';

let reg: NpmRegistryDouble;
let dir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agent-version-'));
  // the double's `latest` is the last version listed for a package
  reg = await startNpmRegistryDouble([
    { name: '@acme/agent-cli', version: '1.2.3', files: { 'a.txt': 'a' } },
    { name: '@acme/agent-cli', version: '1.4.0', files: { 'a.txt': 'b' } },
    { name: 'solo-agent', version: '0.9.1', files: { 'a.txt': 'c' } },
  ]);
  env = npmEnvFor(reg.url, join(dir, 'npm-cache'));
});
afterAll(async () => {
  await reg.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('newestVersion', () => {
  it("is the registry's latest dist-tag, asked once per process and package", async () => {
    expect(await newestVersion('@acme/agent-cli', env)).toBe('1.4.0');
    const before = reg.requests.length;
    expect(await newestVersion('@acme/agent-cli', env)).toBe('1.4.0');
    expect(reg.requests.length).toBe(before);
    expect(await newestVersion('solo-agent', env)).toBe('0.9.1');
  });

  it('a package the registry does not have is an error naming it and the npm command', async () => {
    await expect(newestVersion('no-such-agent', env)).rejects.toThrow(/did not say which release of no-such-agent is the newest \(npm view no-such-agent@latest version\): .*404/s);
  });
});

describe('settleAgentVersion', () => {
  const adapter = { ...fixtureAdapter(), package: { name: '@acme/agent-cli', version: '1.2.3', install: 'pack' as const } };

  it('an exact version stays, none is the pin, latest is the newest (and says so)', async () => {
    const lines: string[] = [];
    expect(await settleAgentVersion(adapter, '1.3.0', { env })).toBe('1.3.0');
    expect(await settleAgentVersion(adapter, null, { env })).toBe('1.2.3');
    expect(await settleAgentVersion(adapter, 'latest', { env, log: (l) => lines.push(l) })).toBe('1.4.0');
    expect(lines).toEqual(["acme: --agent-version latest is @acme/agent-cli@1.4.0 (the npm registry's newest; pinned: 1.2.3)"]);
  });
});
