// The openclaw launcher, with a stand-in for openclaw.mjs: one custom provider per PROVIDER of
// the reference's matrix (API kind, base URL, key by reference), exec as the only tool, update
// checks off, the same session id every turn, the reply from the JSON result.
import { describe, expect, it } from 'vitest';
import { openclaw } from '../../../runner/src/agents/openclaw.js';
import { layerWith } from './launcher-harness.js';

const PROGRAM = 'node_modules/openclaw/openclaw.mjs';
const ANSWER = `process.stdout.write(JSON.stringify({ payloads: [{ text: 'Saved it.' }], meta: { aborted: false, finalAssistantVisibleText: 'Saved it.' } }));`;
const run = (env: Record<string, string>) => {
  const layer = layerWith(openclaw, PROGRAM, ANSWER);
  const r = layer.turn('Save the flat', { MODEL: 'm-1', API_KEY: 'sk-oc-test', ...env });
  return { r, layer, config: r.code === 0 ? JSON.parse(layer.file('home/.openclaw/openclaw.json')) : null };
};

describe('openclaw launcher', () => {
  it.each([
    ['anthropic', 'http://gw:1/v1', 'anthropic-messages', 'http://gw:1'],
    ['openai', 'http://gw:1/v1', 'openai-responses', 'http://gw:1/v1'],
    ['openai-compat', 'http://vllm:8000/v1', 'openai-completions', 'http://vllm:8000/v1'],
    ['google', 'http://gw:1/v1beta', 'google-generative-ai', 'http://gw:1/v1beta'],
    ['openrouter', '', 'openai-completions', 'https://openrouter.ai/api/v1'],
  ])('PROVIDER=%s, BASE_URL "%s" → a %s provider at %s', (provider, base, api, baseUrl) => {
    const { r, config, layer } = run({ PROVIDER: provider, ...(base ? { BASE_URL: base } : {}) });
    expect(r).toMatchObject({ code: 0, reply: 'Saved it.' });
    expect(config.models.providers.gaia2).toMatchObject({ api, baseUrl, apiKey: '${GAIA2_OPENCLAW_KEY}', models: [{ id: 'm-1' }] });
    expect(config.agents.defaults.model.primary).toBe('gaia2/m-1');
    expect(config.tools).toEqual({ allow: ['exec'], exec: { security: 'full', ask: 'off' } });
    expect(config.update).toEqual({ checkOnStart: false, auto: { enabled: false } });
    expect(config.plugins).toEqual({ enabled: false });
    expect(JSON.stringify(config)).not.toContain('sk-oc-test');
    expect(layer.seen().env).toMatchObject({ GAIA2_OPENCLAW_KEY: 'sk-oc-test', OPENCLAW_NO_AUTO_UPDATE: '1', OPENCLAW_DISABLE_BONJOUR: '1' });
  });

  it('keeps one session id across turns and passes the thinking level', () => {
    const layer = layerWith(openclaw, PROGRAM, ANSWER);
    const env = { PROVIDER: 'anthropic', MODEL: 'm', API_KEY: 'k', THINKING: 'medium' };
    layer.turn('first', env);
    const first = layer.seen().argv;
    layer.turn('second', env);
    const second = layer.seen().argv;
    expect(first.slice(0, 3)).toEqual(['agent', '--local', '--json']);
    expect(second[second.indexOf('--session-id') + 1]).toBe(first[first.indexOf('--session-id') + 1]);
    expect(second.slice(-2)).toEqual(['--thinking', 'medium']);
  });

  it('openai-compat without BASE_URL, and an unknown provider, are refused', () => {
    expect(run({ PROVIDER: 'openai-compat' }).r).toMatchObject({ code: 2, stderr: expect.stringMatching(/needs BASE_URL/) });
    expect(run({ PROVIDER: 'bedrock' }).r).toMatchObject({ code: 2, stderr: expect.stringMatching(/not PROVIDER=bedrock/) });
  });
});
