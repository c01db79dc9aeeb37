// The codex launcher, with a stand-in for the codex binary: the config.toml it writes (its own
// provider at BASE_URL, analytics, feedback, OTel and update checks off), exec then exec resume
// on the thread id of turn 1, the reply from the -o file.
import { describe, expect, it } from 'vitest';
import { codex } from '../../../runner/src/agents/codex.js';
import { layerWith } from './launcher-harness.js';

const BIN = 'vendor/x86_64-unknown-linux-musl/bin/codex';
// Like codex exec --json: JSON lines on stdout, the last message into the -o file.
const ANSWER = `out=""; prev=""; for a in "$@"; do [ "$prev" = "-o" ] && out="$a"; prev="$a"; done
echo '{"type":"thread.started","thread_id":"0199-thread"}'
echo '{"type":"turn.started"}'
printf 'Forwarded it.' > "$out"
echo '{"type":"turn.completed","usage":{"input_tokens":10,"output_tokens":2}}'`;
const BASE = { PROVIDER: 'openai', MODEL: 'gpt-5.1-codex', OPENAI_API_KEY: 'sk-oai-test', BASE_URL: 'http://gw.example:8080/v1' };

describe('codex launcher', () => {
  it('declares the endpoint as a provider of its own and switches phoning home off', () => {
    const layer = layerWith(codex, BIN, ANSWER);
    const r = layer.turn('Forward the invoice', { ...BASE, THINKING: 'high' });
    expect(r).toMatchObject({ code: 0, reply: 'Forwarded it.' });
    const config = layer.file('home/.codex/config.toml');
    for (const line of [
      'model_provider = "gaia2"', 'model = "gpt-5.1-codex"', 'model_reasoning_effort = "high"', 'approval_policy = "never"',
      'sandbox_mode = "danger-full-access"', 'check_for_update_on_startup = false', '[features]\nplugins = false', '[analytics]\nenabled = false',
      '[feedback]\nenabled = false', 'exporter = "none"', 'base_url = "http://gw.example:8080/v1"', 'env_key = "GAIA2_CODEX_KEY"', 'wire_api = "responses"',
    ]) expect(config).toContain(line);
    expect(config).not.toContain('sk-oai-test');
    const { argv, env, stdin } = layer.seen();
    expect(env.GAIA2_CODEX_KEY).toBe('sk-oai-test');
    expect(env.CODEX_HOME).toMatch(/home\/\.codex$/);
    expect(argv).toEqual(['exec', '--json', '--strict-config', '--skip-git-repo-check', '-o', expect.stringMatching(/turn-1\.codex\.last\.txt$/), '-']);
    expect(stdin).toBe('Forward the invoice');
    expect(layer.file('home/work/AGENTS.md')).toContain('exec_command');
  });

  it('resumes the thread of turn 1 on turn 2', () => {
    const layer = layerWith(codex, BIN, ANSWER);
    layer.turn('first', BASE);
    layer.turn('second', BASE);
    const { argv } = layer.seen();
    expect(argv.slice(argv.indexOf('resume'))).toEqual(['resume', '0199-thread', '-']);
  });

  it('a turn that never completed fails, with the error event on stderr', () => {
    const layer = layerWith(codex, BIN, `echo '{"type":"thread.started","thread_id":"t"}'; echo '{"type":"turn.failed","error":{"message":"unexpected status 401"}}'; exit 1`);
    const r = layer.turn('x', BASE);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('unexpected status 401');
  });

  it('another provider is refused', () => {
    const layer = layerWith(codex, BIN, ANSWER);
    expect(layer.turn('x', { ...BASE, PROVIDER: 'anthropic' })).toMatchObject({ code: 2, stderr: expect.stringMatching(/PROVIDER must be openai/) });
  });
});
