// Cline kept up, on the host, with each provider it is given: the layer's bin/agent-serve run as
// the world's runtime runs it (test/runner/agents/serve-host.ts) with the real program from npm
// (@cline/cli-linux-x64), against a double of that provider's wire protocol that drives its
// run_commands tool. What the container suite (cline.test.ts, openai-compat) does not cover: that
// each of Cline's own providers reaches the base URL it is given, with the key where that
// provider puts it, offering run_commands alone, and hands the command's output back. The cases
// run side by side (each its own double, home and program): the file takes ~25 s, not ~60.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cline } from '../../../runner/src/agents/cline.js';
import { ensureAgentPackage } from '../../../runner/src/image/agent-package.js';
import { projectRoot } from '../../../runner/src/image/project-root.js';
import { clineShell, readRequest, shellDriver, startFakeLlm, type FakeFormat, type FakeLlm } from '../../helpers/fake-llm/index.js';
import { serveHost } from '../../runner/agents/serve-host.js';

const cacheDir = process.env.GAIA2_AGENT_CACHE ?? join(projectRoot(), '.cache');
let pkg = '';
const doubles: FakeLlm[] = [];

beforeAll(async () => {
  pkg = await ensureAgentPackage(cline.package, cline.package.version, { cacheDir });
}, 300_000);
afterAll(async () => {
  for (const d of doubles) await d.close();
});

/**
 * Each provider, the double's wire format, where the key goes, the path its requests take, the
 * tools offered, and how its requests say thinking is off (ACP mode builds sessions without it).
 */
const CASES: Array<[provider: string, format: FakeFormat, keyHeader: string, path: RegExp, tools: string[], thinkingOff: object]> = [
  ['openai-compat', 'openai-chat', 'authorization', /^\/v1\/chat\/completions/, ['run_commands'], {}],
  ['anthropic', 'anthropic', 'x-api-key', /^\/v1\/messages/, ['run_commands'], { thinking: { type: 'disabled' } }],
  ['google', 'gemini', 'x-goog-api-key', /^\/v1beta\/models\/gaia2-double-model:streamGenerateContent/, ['run_commands'], { generationConfig: { thinkingConfig: { thinkingBudget: 0 } } }],
  // OpenAI's hosted image tool, which Cline 3.0.65 adds with no setting to stop it (docs/agents.md)
  ['openai', 'openai-responses', 'authorization', /^\/v1\/responses/, ['image_generation', 'run_commands'], {}],
  ['openrouter', 'openai-chat', 'authorization', /^\/v1\/chat\/completions/, ['run_commands'], { reasoning: { effort: 'none' } }],
];

describe('cline kept up with each of its providers (bin/agent-serve, the real program, on the host)', () => {
  it.concurrent.each(CASES)('%s (the %s double): a turn through run_commands, its output back to the model, the key where the provider puts it', { timeout: 120_000 }, async (provider, format, keyHeader, path, tools, thinkingOff) => {
    const driver = shellDriver(clineShell(format), [{ when: 'Which files', commands: ["printf '%s-%s' from-the-shell 42"], reply: 'There is one file.' }]);
    const fake = await startFakeLlm({ format, respond: (r) => driver.respond(r) });
    doubles.push(fake);
    const host = serveHost(cline, pkg, { PROVIDER: provider, MODEL: 'gaia2-double-model', API_KEY: `key-${provider}`, BASE_URL: fake.url, THINKING: 'low' });
    const s = host.start();
    expect(await s.next('ready'), s.stderr()).toEqual({ type: 'ready', steer: false });
    expect(fake.requests).toHaveLength(0);
    expect(await s.turn(1, 'Which files are there?'), s.stderr()).toEqual({ type: 'reply', turn: 1, text: 'There is one file.' });
    s.send({ type: 'shutdown', reason: 'test over' });
    expect((await s.exited).code).toBe(0);
    expect(fake.requests.length).toBeGreaterThanOrEqual(2);
    for (const q of fake.requests) {
      expect(q.path).toMatch(path);
      // the run's model, not one of Cline's catalogue (gemini's is in the path)
      expect(format === 'gemini' ? q.path : q.body.model).toContain('gaia2-double-model');
      expect(q.stream).toBe(true);
      expect(String(q.headers[keyHeader])).toContain(`key-${provider}`);
      expect(readRequest(format, q.body).tools).toEqual(tools);
      expect(q.body).toMatchObject(thinkingOff);
    }
    // the key went by variable only: not in the provider file Cline read, nor its copy in the trace
    expect(readFileSync(join(host.dirs.user, '.cline', 'data', 'settings', 'providers.json'), 'utf8')).not.toContain(`key-${provider}`);
    expect(readFileSync(join(host.dirs.trace, 'cline-providers.json'), 'utf8')).not.toContain(`key-${provider}`);
    const results = readRequest(format, fake.requests.at(-1)!.body).items.map((i) => (i.kind === 'result' ? i.text : '')).join('\n');
    expect(results).toContain('from-the-shell-42');
  });
});
