// The claude-code launcher, with a stand-in for the claude binary: how it maps the contract's
// variables onto Claude Code's, resumes the session and reads the reply from the JSON result.
import { describe, expect, it } from 'vitest';
import { claudeCode } from '../../../runner/src/agents/claude-code.js';
import { layerWith } from './launcher-harness.js';

const RESULT = `echo '{"type":"result","subtype":"success","is_error":false,"result":"Ordered the bottles.","session_id":"s"}'`;
const BASE = { PROVIDER: 'anthropic', MODEL: 'claude-sonnet-4-5', API_KEY: 'sk-ant-test', BASE_URL: 'http://gw.example:8080/v1/' };

describe('claude-code launcher', () => {
  it('runs claude -p with Bash only, the message on stdin, the key and base URL in its own variables', () => {
    const layer = layerWith(claudeCode, 'claude', RESULT);
    const r = layer.turn('Order two bottles', { ...BASE, THINKING: 'medium' });
    expect(r).toMatchObject({ code: 0, reply: 'Ordered the bottles.' });
    const { argv, env, stdin } = layer.seen();
    expect(stdin).toBe('Order two bottles');
    expect(argv.slice(0, 9)).toEqual(['-p', '--output-format', 'json', '--tools', 'Bash', '--allowedTools', 'Bash', '--permission-mode', 'bypassPermissions']);
    expect(argv).toEqual(expect.arrayContaining(['--model', 'claude-sonnet-4-5', '--effort', 'medium']));
    expect(argv.join(' ')).not.toContain('sk-ant-test');
    expect(env).toMatchObject({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: 'http://gw.example:8080', MAX_THINKING_TOKENS: '8192', DISABLE_TELEMETRY: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1' });
    const prompt = argv[argv.indexOf('--append-system-prompt') + 1]!;
    expect(prompt).toContain('- emails\n- shopping');
    expect(prompt).toContain('2025-10-09 09:00:00');
  });

  it('starts a session with an id of its own on turn 1 and resumes it on turn 2', () => {
    const layer = layerWith(claudeCode, 'claude', RESULT);
    layer.turn('first', BASE);
    const first = layer.seen().argv;
    const id = first[first.indexOf('--session-id') + 1]!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    layer.turn('second', BASE);
    const second = layer.seen().argv;
    expect(second[second.indexOf('--resume') + 1]).toBe(id);
    expect(second).not.toContain('--session-id');
  });

  it("Agent2Agent: Bash may run an expert agent's whole conversation (30 minutes), and only then", () => {
    const layer = layerWith(claudeCode, 'claude', RESULT);
    layer.turn('x', BASE);
    expect(layer.seen().env.BASH_DEFAULT_TIMEOUT_MS).toBeUndefined();
    layer.turn('y', { ...BASE, GAIA2_APP_AGENTS: 'shopping' });
    expect(layer.seen().env).toMatchObject({ BASH_DEFAULT_TIMEOUT_MS: '1800000', BASH_MAX_TIMEOUT_MS: '1800000' });
  });

  it('THINKING=off switches thinking off', () => {
    const layer = layerWith(claudeCode, 'claude', RESULT);
    layer.turn('x', { ...BASE, THINKING: 'off' });
    expect(layer.seen().env.MAX_THINKING_TOKENS).toBe('0');
    expect(layer.seen().argv).not.toContain('--effort');
  });

  it('an error result fails the turn with the reason on stderr', () => {
    const layer = layerWith(claudeCode, 'claude', `echo '{"is_error":true,"result":"Invalid API key"}'; exit 1`);
    const r = layer.turn('x', BASE);
    expect(r.code).toBe(1);
    expect(r.reply).toBe('');
    expect(r.stderr).toContain('Invalid API key');
  });

  it('another provider is refused before the program runs', () => {
    const layer = layerWith(claudeCode, 'claude', RESULT);
    const r = layer.turn('x', { ...BASE, PROVIDER: 'openai' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/PROVIDER must be anthropic, not openai/);
    expect(() => layer.seen()).toThrow(/never ran/);
  });
});
