// `--agent acp`: the options that name the program (checked with errors naming the field at
// fault), the update → step mapping of the kit's acp-steps.mjs, and the layer's bin/agent-serve
// with the stand-in ACP program (acp-standin.mjs) as the package's program: its command line and
// variables filled in inside the container, authenticate, the instructions file, a turn's steps
// in acp-steps.jsonl. The real programs (OpenCode, Gemini CLI) run in test/e2e/agents/acp.test.ts.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { acp, acpLayerName } from '../../../runner/src/agents/acp.js';
import { agentRegistry } from '../../../runner/src/agents/index.js';
import { resolveAgentChoice } from '../../../runner/src/config/agent-choice.js';
// @ts-expect-error the kit is plain JavaScript
import { StepMapper } from '../../../runner/src/agents/kit/acp-steps.mjs';
// @ts-expect-error the layer's helpers are plain JavaScript
import { envOption, substitute } from '../../../runner/src/agents/acp/layer/lib/acp-program.mjs';
import { standinLayer } from './acp-bridge-cases.js';

const N = { name: '--agent', version: '--agent-version', options: '--agent-option', provider: '--provider' };
const OPENCODE = { package: 'opencode-linux-x64@1.18.33', command: 'opencode acp --pure' };
const choose = (options: Record<string, string | number | boolean>, more: { version?: string; provider?: string } = {}) => resolveAgentChoice('acp', { options, ...more }, N, agentRegistry());

describe('--agent acp options', () => {
  it("the package option names the program's adapter: its npm package and version, a layer of its own", () => {
    const c = choose({ ...OPENCODE, install: 'install' });
    expect(c.version).toBe('1.18.33');
    expect(c.adapter).toMatchObject({ name: 'acp', package: { name: 'opencode-linux-x64', version: '1.18.33', install: 'install' }, layerName: 'acp-opencode-linux-x64' });
    expect(choose({ package: '@google/gemini-cli@0.61.0', command: 'gemini --acp' }).adapter).toMatchObject({ package: { name: '@google/gemini-cli', install: 'pack' }, layerName: 'acp-google-gemini-cli' });
    expect(acpLayerName('@google/gemini-cli')).not.toBe(acpLayerName('opencode-ai'));
    // --agent-version overrides the package's version, as for every third-party agent
    expect(choose(OPENCODE, { version: '1.19.0' }).version).toBe('1.19.0');
  });

  it('refuses options that cannot name a program, saying which option and what it wants', () => {
    expect(() => choose({ command: 'x' })).toThrow(/--agent-option: --agent acp needs the option "package"/);
    expect(() => choose({ package: 'opencode-ai', command: 'x' })).toThrow(/option "package" must be NAME@VERSION with an exact version .*got "opencode-ai"/);
    expect(() => choose({ package: 'opencode-ai@^1.18', command: 'x' })).toThrow(/got "opencode-ai@\^1\.18"/);
    expect(() => choose({ package: 'opencode-ai@1.18.33' })).toThrow(/needs the option "command"/);
    expect(() => choose({ ...OPENCODE, install: 'global' })).toThrow(/option "install" must be "pack" or "install" \(got "global"\)/);
    expect(() => choose({ ...OPENCODE, env: 'A=1\nnot a variable' })).toThrow(/--agent-option\.env line 2 must be NAME=VALUE/);
    expect(() => choose({ ...OPENCODE, context_file: '../AGENTS.md' })).toThrow(/option "context_file" must be a file name in the working directory/);
    expect(() => choose({ ...OPENCODE, model: 'x' })).toThrow(/acp has no option "model"; its options: package, command, env, install, auth_method, context_file, tool_name/);
    expect(() => choose({ ...OPENCODE, env: 3 })).toThrow(/acp option "env" must be a string/);
  });

  it('is listed with the other agents; its options are documented', () => {
    expect(agentRegistry().names()).toContain('acp');
    for (const o of Object.values(acp.options!)) expect(o.description.length).toBeGreaterThan(20);
  });
});

describe('ACP updates as steps (kit acp-steps.mjs)', () => {
  it('a message, a tool call with its input and output once it ended, the message after it; what is open at the end flushed', () => {
    const m = new StepMapper();
    const chunk = (text: string, kind = 'agent_message_chunk') => m.add({ sessionUpdate: kind, content: { type: 'text', text } });
    expect([...chunk('Let me ', 'agent_thought_chunk'), ...chunk('think.', 'agent_thought_chunk')]).toEqual([]);
    expect(chunk('Looking.')).toEqual([{ step: 'thought', text: 'Let me think.' }]);
    expect(m.add({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'emails list', kind: 'execute', status: 'pending', rawInput: { command: 'emails list' } })).toEqual([{ step: 'message', text: 'Looking.' }]);
    expect(m.add({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'in_progress' })).toEqual([]);
    const done = m.add({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: '2 emails' } }] });
    expect(done).toEqual([{ step: 'tool', id: 't1', title: 'emails list', kind: 'execute', input: { command: 'emails list' }, output: '2 emails', status: 'completed' }]);
    // output as rawOutput (OpenCode's shape), a failed call
    m.add({ sessionUpdate: 'tool_call', toolCallId: 't2', title: 'bash', status: 'in_progress' });
    expect(m.add({ sessionUpdate: 'tool_call_update', toolCallId: 't2', status: 'failed', rawOutput: { output: 'no such app' } })).toMatchObject([{ id: 't2', output: 'no such app', status: 'failed' }]);
    chunk('Done.');
    m.add({ sessionUpdate: 'tool_call', toolCallId: 't3', title: 'never ended' });
    expect(m.flush()).toEqual([{ step: 'tool', id: 't3', title: 'never ended', kind: 'other', input: null, output: '', status: 'pending' }]);
    expect(m.add({ sessionUpdate: 'plan', entries: [] })).toEqual([]);
  });
});

describe('acp bin/agent-serve (stand-in program)', () => {
  it('fills ${NAME} in the command and env inside the container, authenticates, writes the instructions, logs the steps', async () => {
    const options = {
      ...OPENCODE,
      package: 'standin@1.0.0',
      command: 'standin --model ${MODEL} --unset ${NOPE}',
      env: '# the key by its variable\nMY_KEY=${API_KEY}\nSTANDIN_AUTH=key-method',
      auth_method: 'key-method',
      context_file: 'AGENTS.md',
      tool_name: 'bash',
    };
    const adapter = choose(options).adapter!;
    const { host, starts } = standinLayer(adapter, 'bin/standin', { MODEL: 'gaia2-model', API_KEY: 'sk-test', GAIA2_AGENT_OPTIONS: JSON.stringify(options) }, true);
    const s = host.start();
    expect(await s.next('ready')).toEqual({ type: 'ready', steer: false });
    expect(await s.turn(1, 'use a tool')).toEqual({ type: 'reply', turn: 1, text: 'Found it.' });
    s.send({ type: 'shutdown', reason: 'done' });
    expect(await s.exited).toEqual({ code: 0, signal: null });
    const [only] = starts();
    expect(only!.argv).toEqual(['--model', 'gaia2-model', '--unset', '']);
    expect(only!.env).toMatchObject({ MY_KEY: 'sk-test', NO_COLOR: '1' });
    const serveTrace = readFileSync(join(host.dirs.trace, 'serve-1.acp.jsonl'), 'utf8');
    expect(serveTrace).toContain('"method":"authenticate","params":{"methodId":"key-method"}');
    expect(readFileSync(join(host.dirs.trace, 'turn-1.acp.jsonl'), 'utf8')).toContain('"method":"session/prompt"');
    expect(readFileSync(join(host.dirs.work, 'AGENTS.md'), 'utf8')).toContain('always call them through bash');
    const program = readFileSync(join(host.dirs.trace, 'acp-program.json'), 'utf8');
    expect(JSON.parse(program)).toMatchObject({ package: 'standin@1.0.0', env: ['MY_KEY', 'STANDIN_AUTH'] });
    expect(program).not.toContain('sk-test');
    const steps = readFileSync(join(host.dirs.trace, 'acp-steps.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(steps.map(({ time: _t, ...l }) => l)).toEqual([
      { turn: 1, step: 'message', text: 'Let me look. ' },
      { turn: 1, step: 'tool', id: 'call-1', title: 'ls', kind: 'execute', input: { command: 'ls' }, output: 'notes.txt', status: 'completed' },
      { turn: 1, step: 'message', text: 'Found it.' },
    ]);
  });

  it('a shutdown mid-turn cancels the prompt (session/cancel) before the program is ended', async () => {
    const options = { package: 'standin@1.0.0', command: 'standin' };
    const { host } = standinLayer(choose(options).adapter!, 'bin/standin', { GAIA2_AGENT_OPTIONS: JSON.stringify(options) }, true);
    const s = host.start();
    await s.next('ready');
    s.send({ type: 'turn', turn: 1, kind: 'user', text: 'wait for it', parts: [], sim_time: '2025-10-09 09:00:00' });
    await new Promise((r) => setTimeout(r, 300));
    s.send({ type: 'shutdown', reason: 'done' });
    expect((await s.exited).code).toBe(0);
    const sent = readFileSync(join(host.dirs.trace, 'turn-1.acp.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { dir: string; msg: { method?: string } });
    expect(sent.filter((l) => l.dir === 'out').map((l) => l.msg.method)).toEqual(['session/prompt', 'session/cancel']);
  });

  it('a program whose authentication fails does not start, saying why', async () => {
    const options = { package: 'standin@1.0.0', command: 'standin', env: 'STANDIN_AUTH=other', auth_method: 'key-method' };
    const { host } = standinLayer(choose(options).adapter!, 'bin/standin', { GAIA2_AGENT_OPTIONS: JSON.stringify(options) }, true);
    const s = host.start();
    expect((await s.exited).code).toBe(3);
    expect(s.stderr()).toContain('unknown auth method key-method');
  });

  it('${NAME} is filled from the variables, unset ones empty; env lines skip comments and blanks', () => {
    expect(substitute('${A}-${B}-$C', { A: 'x' })).toBe('x--$C');
    expect(substitute('${U%/v1beta}|${V%/v1beta}', { U: 'http://gw:1/p/v1beta', V: 'http://gw:1/p' })).toBe('http://gw:1/p|http://gw:1/p');
    expect(envOption('A=${K}\n\n# note\nB = two=2', { K: 'k' })).toEqual({ A: 'k', B: ' two=2' });
  });
});
