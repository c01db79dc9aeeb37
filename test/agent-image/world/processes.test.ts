// The image's processes on the host (no container): gaia2d + the scripted runtime as separate
// processes over the Unix sockets; a daemon stopped or killed mid-run leaves a terminal status
// with a reason (the entrypoint's fallback server reports it); the runner's additions: the
// scenario delivered after start, GET /artifacts and POST /shutdown.
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../helpers/free-port.js';
import { GOLDEN } from './golden.js';
import { tempStateDir } from './run-world.js';

const MAIN = join(import.meta.dirname, '../../../agent-image/src/main');
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

function startMain(name: string, env: Record<string, string>): ChildProcess {
  const c = spawn(process.execPath, ['--import', 'tsx', join(MAIN, `${name}.ts`)], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  c.stderr!.setEncoding('utf8');
  c.stderr!.on('data', () => undefined);
  children.push(c);
  return c;
}

async function poll<T>(fn: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    try {
      const v = await fn();
      if (v !== undefined) return v;
    } catch {
      /* not up yet */
    }
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function daemonEnv(agent: string) {
  const dir = tempStateDir();
  const port = await freePort();
  const env = {
    GAIA2_SCENARIO: join(GOLDEN, 'scenarios/search/search_email_flight_code.json'),
    GAIA2_STATE_DIR: dir,
    GAIA2_ADAPTER_PORT: String(port),
    GAIA2_AGENT: agent,
    GAIA2_AGENT_SOCKET: join(dir, 'agent.sock'),
    GAIA2_CLI_SOCKET: join(dir, 'cli.sock'),
    GAIA2_FAKETIME_FILE: join(dir, 'faketime.rc'),
    GAIA2_JUDGE_FINAL_TURN: '1',
    GAIA2_ADAPTER_TOKEN: 'tok-123',
  };
  const get = async (path: string) => (await fetch(`http://127.0.0.1:${port}${path}`)).json() as Promise<Record<string, unknown>>;
  return { dir, port, env, get };
}

describe('image processes on the host', () => {
  it('gaia2d + agent-scripted complete a scenario; /notify needs the token', async () => {
    const d = await daemonEnv('scripted');
    startMain('gaia2d', d.env);
    const h = await poll(() => d.get('/health'));
    expect(h.connected).toBe(false);
    const unauth = await fetch(`http://127.0.0.1:${d.port}/notify`, { method: 'POST', body: '{"message":"x"}' });
    expect(unauth.status).toBe(401);
    await poll(async () => (readFileSync(join(d.dir, 'daemon_status.json'), 'utf8').includes('running') ? true : undefined));
    startMain('agent-scripted', {
      GAIA2_AGENT_SOCKET: d.env.GAIA2_AGENT_SOCKET,
      GAIA2_SCRIPT: JSON.stringify([{ commands: [['emails', 'list-emails']], reply: 'Code K7QX2M.' }]),
    });
    const s = await poll(async () => {
      const st = await d.get('/status');
      return ['complete', 'stopped', 'error'].includes(String(st.status)) ? st : undefined;
    });
    expect(s).toMatchObject({ status: 'complete', judgment: { success: true }, turn: 1, last_response: 'Code K7QX2M.' });
    expect(readFileSync(d.env.GAIA2_FAKETIME_FILE, 'utf8')).toMatch(/^2025-10-09 09:00:\d\d\n$/);
  }, 60_000);

  it('a setup error (bad scenario) is a terminal status naming the file; the adapter keeps answering', async () => {
    const d = await daemonEnv('scripted');
    const bad = join(d.dir, 'bad-scenario.json');
    writeFileSync(bad, '{"events": [{"event_type": "ENV"}]}');
    startMain('gaia2d', { ...d.env, GAIA2_SCENARIO: bad });
    const s = await poll(async () => {
      const st = await d.get('/status');
      return st.status === 'error' ? st : undefined;
    });
    expect(String(s.reason)).toMatch(/bad-scenario\.json: field "events\.0\.event_id"/);
    expect((await d.get('/health')).connected).toBe(false);
  }, 60_000);

  it('SIGTERM mid-run → status error with the reason; SIGKILL → the fallback server reports it', async () => {
    const d = await daemonEnv('scripted');
    const daemon = startMain('gaia2d', d.env);
    await poll(async () => ((await d.get('/status')).status === 'running' ? true : undefined));
    daemon.kill('SIGTERM');
    await new Promise((r) => daemon.once('exit', r));
    const afterTerm = JSON.parse(readFileSync(join(d.dir, 'daemon_status.json'), 'utf8'));
    expect(afterTerm.status).toBe('error');
    expect(afterTerm.reason).toMatch(/stopped by SIGTERM/);

    const d2 = await daemonEnv('scripted');
    const daemon2 = startMain('gaia2d', d2.env);
    await poll(async () => ((await d2.get('/status')).status === 'running' ? true : undefined));
    daemon2.kill('SIGKILL');
    await new Promise((r) => daemon2.once('exit', r));
    startMain('gaia2-status', { ...d2.env, GAIA2_DAEMON_EXIT: 'killed by signal 9' });
    const s = await poll(async () => {
      const st = await d2.get('/status');
      return st.status === 'error' ? st : undefined;
    });
    expect(s.reason).toMatch(/world daemon exited unexpectedly \(killed by signal 9\) while status was running/);
    expect((await d2.get('/health')).connected).toBe(false);
  }, 60_000);

  it('waits for GAIA2_SCENARIO_READY before reading the scenario; serves /artifacts; exits on /shutdown', async () => {
    const d = await daemonEnv('oracle');
    const scenario = join(d.dir, 'late-scenario.json');
    const ready = join(d.dir, 'scenario.ready');
    const env = { ...d.env, GAIA2_SCENARIO: scenario, GAIA2_SCENARIO_READY: ready, GAIA2_TRACE_FILE: join(d.dir, 'trace.jsonl') };
    const daemon = startMain('gaia2d', env);
    expect((await poll(() => d.get('/health'))).connected).toBe(false);
    // No scenario yet: the daemon waits instead of failing.
    await new Promise((r) => setTimeout(r, 300));
    expect((await d.get('/status')).status).toBe('waiting');
    copyFileSync(d.env.GAIA2_SCENARIO, scenario);
    writeFileSync(ready, '');
    const s = await poll(async () => {
      const st = await d.get('/status');
      return ['complete', 'stopped', 'error'].includes(String(st.status)) ? st : undefined;
    });
    expect(s).toMatchObject({ status: 'complete', judgment: { success: true } });

    const auth = { authorization: `Bearer ${d.env.GAIA2_ADAPTER_TOKEN}` };
    const url = `http://127.0.0.1:${d.port}`;
    expect((await fetch(`${url}/artifacts`)).status).toBe(401);
    const a = (await (await fetch(`${url}/artifacts`, { headers: auth })).json()) as { files: Record<string, string>; missing: string[] };
    const text = (name: string) => Buffer.from(a.files[name]!, 'base64').toString('utf8');
    expect(text('events.jsonl')).toBe(readFileSync(join(d.dir, 'events.jsonl'), 'utf8'));
    expect(JSON.parse(text('daemon_status.json'))).toMatchObject({ status: 'complete' });
    expect(a.missing).toContain('trace.jsonl');

    const exited = new Promise<number | null>((r) => daemon.once('exit', (code) => r(code)));
    expect((await fetch(`${url}/shutdown`, { method: 'POST' })).status).toBe(401);
    expect((await fetch(`${url}/shutdown`, { method: 'POST', headers: auth })).status).toBe(200);
    expect(await exited).toBe(0);
  }, 60_000);
});
