// OpenCode kept up, on the host, with each provider it is given: the layer's bin/agent-serve run
// as the world's runtime runs it (test/runner/agents/serve-host.ts) with the real program from npm,
// against a double of that provider's wire protocol that drives its bash tool. What the container
// suite (opencode.test.ts, openai-compat) does not cover: that each AI SDK provider bundled in the
// binary reaches the base URL it is given, with the key where that provider puts it, offering
// bash alone, and hands the command's output back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { opencode } from '../../../runner/src/agents/opencode.js';
import { ensureAgentPackage } from '../../../runner/src/image/agent-package.js';
import { projectRoot } from '../../../runner/src/image/project-root.js';
import { opencodeShell, readRequest, shellDriver, startFakeLlm, type FakeFormat, type FakeLlm } from '../../helpers/fake-llm/index.js';
import { serveHost } from '../../runner/agents/serve-host.js';

const cacheDir = process.env.GAIA2_AGENT_CACHE ?? join(projectRoot(), '.cache');
let pkg = '';
const doubles: FakeLlm[] = [];

beforeAll(async () => {
  pkg = await ensureAgentPackage(opencode.package, opencode.package.version, { cacheDir });
}, 300_000);
afterAll(async () => {
  for (const d of doubles) await d.close();
});

/** Each provider, the double's wire format, where the key goes, the path its requests take. */
const CASES: Array<[provider: string, format: FakeFormat, keyHeader: string, path: RegExp]> = [
  ['anthropic', 'anthropic', 'x-api-key', /^\/v1\/messages/],
  ['google', 'gemini', 'x-goog-api-key', /^\/v1beta\/models\/gaia2-double-model:streamGenerateContent/],
  ['openai', 'openai-responses', 'authorization', /^\/v1\/responses/],
];

describe('opencode kept up with each of its providers (bin/agent-serve, the real program, on the host)', () => {
  it.each(CASES)('%s (the %s double): a turn through bash, its output back to the model, the key where the provider puts it', { timeout: 180_000 }, async (provider, format, keyHeader, path) => {
    const shell = opencodeShell(format);
    const driver = shellDriver(shell, [{ when: 'Which files', commands: ["printf '%s-%s' from-the-shell 42"], reply: 'There is one file.' }]);
    const fake = await startFakeLlm({ format, respond: (r) => driver.respond(r) });
    doubles.push(fake);
    const host = serveHost(opencode, pkg, { PROVIDER: provider, MODEL: 'gaia2-double-model', API_KEY: `key-${provider}`, BASE_URL: fake.url, THINKING: 'low' });
    const s = host.start();
    expect(await s.next('ready')).toEqual({ type: 'ready', steer: false });
    expect(fake.requests).toHaveLength(0);
    expect(await s.turn(1, 'Which files are there?')).toEqual({ type: 'reply', turn: 1, text: 'There is one file.' });
    s.send({ type: 'shutdown', reason: 'test over' });
    expect((await s.exited).code).toBe(0);
    for (const q of fake.requests) {
      expect(q.path).toMatch(path);
      expect(String(q.headers[keyHeader])).toContain(`key-${provider}`);
    }
    // besides its title request (no tools), every request offers bash alone
    const withTools = fake.requests.filter((q) => readRequest(format, q.body).tools.length > 0);
    expect(withTools.length).toBeGreaterThanOrEqual(2);
    for (const q of withTools) expect(readRequest(format, q.body).tools).toEqual(['bash']);
    const results = readRequest(format, withTools.at(-1)!.body).items.map((i) => (i.kind === 'result' ? i.text : '')).join('\n');
    expect(results).toContain('from-the-shell-42');
  });
});
