// The gemini-cli launcher, with a stand-in for bundle/gemini.js: its settings (API-key auth,
// statistics, telemetry and updates off, the shell tool only, thinking as a model override),
// the base URL variable, resume by the session id of turn 1, the reply from the JSON output.
import { describe, expect, it } from 'vitest';
import { geminiCli } from '../../../runner/src/agents/gemini-cli.js';
import { layerWith } from './launcher-harness.js';

const ANSWER = `process.stdout.write(JSON.stringify({ session_id: 'gem-session-1', response: 'Booked the ride.', stats: {} }));`;
const BASE = { PROVIDER: 'google', MODEL: 'gemini-2.5-flash', API_KEY: 'gk-test', BASE_URL: 'http://gw.example:8080/v1beta' };

describe('gemini-cli launcher', () => {
  it('writes its settings, passes the key and base URL, and prints the response', () => {
    const layer = layerWith(geminiCli, 'bundle/gemini.js', ANSWER);
    const r = layer.turn('Book the cheapest ride', { ...BASE, THINKING: 'low' });
    expect(r).toMatchObject({ code: 0, reply: 'Booked the ride.' });
    const settings = JSON.parse(layer.file('home/.gemini/settings.json'));
    expect(settings).toMatchObject({
      security: { auth: { selectedType: 'gemini-api-key' } },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
      tools: { core: ['run_shell_command'], shell: { inactivityTimeout: 300 } },
    });
    expect(settings.modelConfigs.overrides).toEqual([
      { match: { model: 'gemini-2.5-flash' }, modelConfig: { generateContentConfig: { thinkingConfig: { thinkingBudget: 2048, includeThoughts: true } } } },
    ]);
    const { argv, env, stdin } = layer.seen();
    expect(argv).toEqual(['--output-format', 'json', '--yolo', '-m', 'gemini-2.5-flash']);
    expect(stdin).toBe('Book the cheapest ride');
    expect(env).toMatchObject({ GEMINI_API_KEY: 'gk-test', GOOGLE_GEMINI_BASE_URL: 'http://gw.example:8080', GEMINI_CLI_NO_RELAUNCH: 'true' });
    expect(env.GOOGLE_API_KEY).toBeUndefined();
    expect(layer.file('home/work/GEMINI.md')).toContain('run_shell_command');
  });

  it('resumes the session of turn 1; Gemini 3 gets a thinking level', () => {
    const layer = layerWith(geminiCli, 'bundle/gemini.js', ANSWER);
    layer.turn('first', BASE);
    layer.turn('second', { ...BASE, MODEL: 'gemini-3-pro', THINKING: 'high' });
    expect(layer.seen().argv.slice(-2)).toEqual(['--resume', 'gem-session-1']);
    const settings = JSON.parse(layer.file('home/.gemini/settings.json'));
    expect(settings.modelConfigs.overrides[0].modelConfig.generateContentConfig.thinkingConfig).toEqual({ thinkingLevel: 'high', includeThoughts: true });
  });

  it("Agent2Agent: the shell tool waits 30 minutes for a silent command (an expert agent's whole conversation)", () => {
    const layer = layerWith(geminiCli, 'bundle/gemini.js', ANSWER);
    layer.turn('x', { ...BASE, GAIA2_APP_AGENTS: 'shopping' });
    expect(JSON.parse(layer.file('home/.gemini/settings.json')).tools.shell).toEqual({ inactivityTimeout: 1800 });
  });

  it('an error in the output fails the turn', () => {
    const layer = layerWith(geminiCli, 'bundle/gemini.js', `process.stdout.write(JSON.stringify({ session_id: 's', error: { type: 'FatalAuthenticationError', message: 'API key not valid' } })); process.exitCode = 41;`);
    const r = layer.turn('x', BASE);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('API key not valid');
  });
});
