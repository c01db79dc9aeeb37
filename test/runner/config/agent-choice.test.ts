import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRegistry } from '../../../runner/src/agents/index.js';
import { parseAgentOptionFlags, resolveAgentChoice } from '../../../runner/src/config/agent-choice.js';
import { resolveAgent } from '../../../runner/src/config/resolve-parts.js';
import { fixtureAdapter } from '../agents/fixture-adapter.js';

const reg = createRegistry([fixtureAdapter()]);
const N = { name: '[agent].name', version: '[agent].version', options: '[agent.options]', provider: '[agent].provider' };

describe('resolveAgentChoice', () => {
  it("takes a third-party agent's pinned version unless another exact one (or latest) is given", () => {
    expect(resolveAgentChoice('acme', {}, N, reg)).toMatchObject({ version: '1.2.3', options: {} });
    expect(resolveAgentChoice('acme', { version: '1.4.0-beta.2' }, N, reg).version).toBe('1.4.0-beta.2');
    // `latest` is kept as asked: the preflight settles it on the registry's newest (image/agent-version.ts)
    expect(resolveAgentChoice('acme', { version: 'latest' }, N, reg).version).toBe('latest');
    expect(() => resolveAgentChoice('acme', { version: 'newest' }, N, reg)).toThrow(/\[agent\]\.version must be an exact package version such as 1\.2\.3, or "latest" \(got "newest"\)/);
    expect(() => resolveAgentChoice('acme', { version: '^1.2' }, N, reg)).toThrow(/got "\^1\.2"/);
  });

  it('checks [agent.options] against what the agent documents', () => {
    expect(resolveAgentChoice('acme', { options: { max_turns: 12, plan_mode: true } }, N, reg).options).toEqual({ max_turns: 12, plan_mode: true });
    expect(() => resolveAgentChoice('acme', { options: { turbo: 1 } }, N, reg)).toThrow(/\[agent\.options\]: acme has no option "turbo"; its options: max_turns, plan_mode/);
    expect(() => resolveAgentChoice('acme', { options: { max_turns: 'many' } }, N, reg)).toThrow(/"max_turns" must be a number/);
  });

  it('refuses a provider the agent does not speak, naming the ones it does', () => {
    expect(() => resolveAgentChoice('acme', { provider: 'google' }, N, reg)).toThrow(/\[agent\]\.provider = google is not a provider acme speaks; it speaks: anthropic, openai/);
  });

  it('fails an unknown name with the list of known agents, and version/options on our runtimes', () => {
    expect(() => resolveAgentChoice('claude', {}, N, reg)).toThrow(/\[agent\]\.name = "claude" is not a known agent; known agents: oracle, default, scripted, acme, external/);
    expect(() => resolveAgentChoice('default', { version: '1.0.0' }, N, reg)).toThrow(/third-party agents only/);
    expect(() => resolveAgentChoice('oracle', { options: { a: 1 } }, N, reg)).toThrow(/agent layers only/);
    expect(resolveAgentChoice('external', { options: { style: 'terse' } }, N, reg)).toEqual({ adapter: null, version: null, options: { style: 'terse' } });
  });
});

describe('parseAgentOptionFlags', () => {
  it("types values as the adapter's options say", () => {
    expect(parseAgentOptionFlags(['max_turns=7', 'plan_mode=false', 'note=a=b'], fixtureAdapter())).toEqual({ max_turns: 7, plan_mode: false, note: 'a=b' });
    expect(() => parseAgentOptionFlags(['max_turns=x'], fixtureAdapter())).toThrow(/--agent-option max_turns must be a number/);
    expect(() => parseAgentOptionFlags(['novalue'], null)).toThrow(/KEY=VALUE/);
  });
});

describe('resolveAgent with agent layers', () => {
  const opt = { image: '--image', provider: '--provider', model: '--model', name: '--agent', script: '--script', version: '--agent-version', options: '--agent-option', instructions: '--instructions-file' };
  it('external: provider settings optional, passed through when given; options kept', () => {
    const bare = resolveAgent({ name: 'external', image: 'localhost/my-agent:1', apiKey: null, options: { style: 'terse' } }, opt);
    expect(bare).toMatchObject({ name: 'external', provider: null, model: null, version: null, options: { style: 'terse' } });
    const withModel = resolveAgent({ name: 'external', image: 'localhost/my-agent:1', apiKey: null, provider: 'openai', model: 'gpt-x', baseUrl: 'http://127.0.0.1:9' }, opt);
    expect(withModel).toMatchObject({ provider: 'openai', model: 'gpt-x', baseUrl: 'http://127.0.0.1:9' });
  });
  it('an unknown --agent fails before anything runs', () => {
    expect(() => resolveAgent({ name: 'clade-code', image: 'x', apiKey: null }, opt)).toThrow(/--agent = "clade-code" is not a known agent; known agents: oracle, default, scripted,.* external/);
  });
});

describe('resolveAgent with an instructions template (--instructions-file)', () => {
  const opt = { image: '[agent].image', provider: '[agent].provider', model: '[agent].model', name: '[agent].name', script: '[agent].script', version: '[agent].version', options: '[agent.options]', instructions: '[agent].instructions_file' };
  const dir = mkdtempSync(join(tmpdir(), 'instructions-'));
  const file = (name: string, text: string) => (writeFileSync(join(dir, name), text), join(dir, name));
  const agent = (instructionsFile: string, name = 'claude-code') => resolveAgent({ name, image: 'localhost/gaia2-agent:latest', apiKey: null, provider: 'anthropic', model: 'm', instructionsFile }, opt);

  it("takes a template with the reference's placeholders, with its digest", () => {
    const text = 'Tools:\n{{TOOL_LIST}}\nUse {{EXEC_TOOL}}; never {{MESSAGING_TOOLS}} for answers.\n';
    const got = agent(file('ok.md', text)).instructions!;
    expect(got).toEqual({ path: join(dir, 'ok.md'), sha256: createHash('sha256').update(text).digest('hex'), text });
    expect(agent(file('bare.md', 'no placeholders at all')).instructions!.text).toBe('no placeholders at all');
  });

  it('names the field and the file: a missing file, an unknown placeholder, a file too big', () => {
    expect(() => agent(join(dir, 'missing.md'))).toThrow(new RegExp(`^\\[agent\\]\\.instructions_file ${join(dir, 'missing.md')}: no such file`));
    expect(() => agent(file('typo.md', '{{TOOLS_LIST}} and {{EXEC_TOOL}}'))).toThrow(/\[agent\]\.instructions_file .*typo\.md: unknown placeholder \{\{TOOLS_LIST\}\}; the known ones: \{\{TOOL_LIST\}\}, \{\{MESSAGING_TOOLS\}\}, \{\{EXEC_TOOL\}\}/);
    expect(() => agent(file('big.md', 'x'.repeat(70_000)))).toThrow(/big\.md: 70000 bytes, more than the 65536/);
  });

  it('is for third-party agents only', () => {
    expect(() => resolveAgent({ name: 'default', image: 'localhost/gaia2-agent:latest', apiKey: null, provider: 'anthropic', model: 'm', instructionsFile: file('d.md', 'x') }, opt)).toThrow(
      /\[agent\]\.instructions_file applies to third-party agents only \(\[agent\]\.name = default\)/,
    );
    expect(resolveAgent({ name: 'external', image: 'localhost/my-agent:1', apiKey: null, instructionsFile: file('e.md', 'x') }, opt).instructions?.text).toBe('x');
  });
});
