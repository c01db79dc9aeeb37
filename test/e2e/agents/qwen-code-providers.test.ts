// Qwen Code kept up, on the host, with each provider it is given: the layer's bin/agent-serve run
// as the world's runtime runs it (test/runner/agents/serve-host.ts) with the real program from
// npm, against a double of that provider's wire protocol that drives its shell tool. What the
// container suite (qwen-code.test.ts, openai-compat) does not cover: that each of its provider
// SDKs reaches the base URL it is given, with the key where that provider puts it, offering
// run_shell_command alone, and hands the command's output back. Qwen Code wants Node ≥ 22: on
// an older host the layer's node/ is the image's Node, as a layer that brings one has it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { qwenCode } from '../../../runner/src/agents/qwen-code.js';
import { ensureAgentPackage } from '../../../runner/src/image/agent-package.js';
import { ensureNodeBinary, IMAGE_NODE_VERSION } from '../../../runner/src/image/node-runtime.js';
import { projectRoot } from '../../../runner/src/image/project-root.js';
import { qwenCodeShell, readRequest, shellDriver, startFakeLlm, type FakeFormat, type FakeLlm } from '../../helpers/fake-llm/index.js';
import { serveHost } from '../../runner/agents/serve-host.js';

const cacheDir = process.env.GAIA2_AGENT_CACHE ?? join(projectRoot(), '.cache');
let pkg = '';
let node: string | null = null;
const doubles: FakeLlm[] = [];

beforeAll(async () => {
  pkg = await ensureAgentPackage(qwenCode.package, qwenCode.package.version, { cacheDir });
  if (Number(process.versions.node.split('.')[0]) < 22) node = await ensureNodeBinary(cacheDir, () => {}, IMAGE_NODE_VERSION);
}, 300_000);
afterAll(async () => {
  for (const d of doubles) await d.close();
});

/** Each provider, the double's wire format, where the key goes, the path its requests take. */
const CASES: Array<[provider: string, format: FakeFormat, keyHeader: string, path: RegExp]> = [
  ['openai-compat', 'openai-chat', 'authorization', /^\/v1\/chat\/completions/],
  // Qwen Code sends the key as a Bearer token to any Anthropic base URL not on anthropic.com (a
  // proxy's identity, it says); the runner's gateway takes the key from either header.
  ['anthropic', 'anthropic', 'authorization', /^\/v1\/messages/],
  ['google', 'gemini', 'x-goog-api-key', /^\/v1beta\/models\/gaia2-double-model:streamGenerateContent/],
  ['openai', 'openai-responses', 'authorization', /^\/v1\/responses/],
];

describe('qwen-code kept up with each of its providers (bin/agent-serve, the real program, on the host)', () => {
  it.each(CASES)('%s (the %s double): a turn through run_shell_command, its output back to the model, the key where the provider puts it', { timeout: 180_000 }, async (provider, format, keyHeader, path) => {
    // A command that ends at once: on plain pipes (without its PTY) Qwen Code 0.24.4 lost such
    // output in about one run of three; on the PTY the layer installs it arrives.
    const driver = shellDriver(qwenCodeShell(format), [{ when: 'Which files', commands: ["printf '%s-%s' from-the-shell 42"], reply: 'There is one file.' }]);
    const fake = await startFakeLlm({ format, respond: (r) => driver.respond(r) });
    doubles.push(fake);
    const host = serveHost(qwenCode, pkg, { PROVIDER: provider, MODEL: 'gaia2-double-model', API_KEY: `key-${provider}`, BASE_URL: fake.url, THINKING: 'low' });
    if (node) {
      mkdirSync(join(host.home, 'node', 'bin'), { recursive: true });
      symlinkSync(node, join(host.home, 'node', 'bin', 'node'));
    }
    const s = host.start();
    expect(await s.next('ready'), s.stderr()).toEqual({ type: 'ready', steer: false });
    expect(fake.requests).toHaveLength(0);
    expect(await s.turn(1, 'Which files are there?')).toEqual({ type: 'reply', turn: 1, text: 'There is one file.' });
    s.send({ type: 'shutdown', reason: 'test over' });
    expect((await s.exited).code).toBe(0);
    expect(fake.requests.length).toBeGreaterThanOrEqual(2);
    for (const q of fake.requests) {
      expect(q.path).toMatch(path);
      expect(String(q.headers[keyHeader])).toContain(`key-${provider}`);
      expect(readRequest(format, q.body).tools).toEqual(['run_shell_command']);
    }
    const results = readRequest(format, fake.requests.at(-1)!.body).items.map((i) => (i.kind === 'result' ? i.text : '')).join('\n');
    expect(results).toContain('from-the-shell-42');
  });
});
