import { describe, expect, it } from 'vitest';
import { formatOutcome, runShellCommand, shellEnv, truncateMiddle } from '../../../../agent-image/src/agents/default/index.js';
import { stubBin } from './helpers.js';

const opts = (binDir: string, extra = {}) => ({ binDir, cwd: '/tmp', timeoutMs: 5000, maxOutputChars: 2000, ...extra });

describe('shell tool', () => {
  it('runs bash with the CLIs first on PATH and reports stderr and the exit code', async () => {
    const bin = stubBin({ contacts: {}, emails: { exit: 1 } });
    const ok = await runShellCommand("contacts get-contacts --offset 0 && cd /tmp && pwd", opts(bin));
    expect(ok.exitCode).toBe(0);
    expect(ok.stdout).toContain('{"cli": "contacts", "args": "get-contacts --offset 0"}');
    expect(ok.stdout.trim().endsWith('/tmp')).toBe(true);
    const bad = await runShellCommand('emails list-emails', opts(bin));
    expect(formatOutcome(bad, 2000)).toBe('{"cli": "emails", "args": "list-emails"}\n[stderr]\nemails: failed\n[exit code 1]');
  });

  it('does not hand keys, tokens or the model settings to the command', async () => {
    const env = { PATH: process.env.PATH, API_KEY: 'k-1', ANTHROPIC_API_KEY: 'k-2', GAIA2_ADAPTER_TOKEN: 't', GAIA2_JUDGE_MODEL: 'j', MODEL: 'm', LANG: 'C.UTF-8' };
    const r = await runShellCommand('env', opts(stubBin({}), { env }));
    expect(r.stdout).toContain('LANG=C.UTF-8');
    for (const name of ['API_KEY', 'ANTHROPIC_API_KEY', 'GAIA2_ADAPTER_TOKEN', 'GAIA2_JUDGE_MODEL', 'MODEL=']) expect(r.stdout).not.toContain(name);
    expect(shellEnv({ PATH: '/home/agent/bin:/usr/bin' }, '/home/agent/bin').PATH).toBe('/home/agent/bin:/usr/bin');
  });

  it('kills a command that runs past the timeout, children included', async () => {
    const started = Date.now();
    const r = await runShellCommand('sleep 30 & sleep 30; echo never', opts(stubBin({}), { timeoutMs: 300 }));
    expect(Date.now() - started).toBeLessThan(5000);
    expect(r.timedOut).toBe(true);
    expect(formatOutcome(r, 2000)).toContain('[timed out after 0 s; the command was killed]');
  });

  it('cuts long output in the middle, keeping head and tail', async () => {
    const r = await runShellCommand('seq 1 20000', opts(stubBin({}), { maxOutputChars: 500 }));
    const shown = formatOutcome(r, 500);
    expect(shown.length).toBeLessThanOrEqual(500);
    expect(shown.startsWith('1\n2\n3\n')).toBe(true);
    expect(shown).toMatch(/\[… \d+ characters cut …\]/);
    expect(shown.trim().endsWith('20000')).toBe(true);
    expect(truncateMiddle('short', 10)).toBe('short');
  });
});
