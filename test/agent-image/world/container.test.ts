// The sandbox and the failure paths in real containers (podman, the agent image; build it
// with `npm run build-image`, or set GAIA2_TEST_IMAGE). Containers carry the label
// gaia2.test=daemon and are removed afterwards.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { GOLDEN } from './golden.js';

const run = promisify(execFile);
const IMAGE = process.env.GAIA2_TEST_IMAGE ?? 'localhost/gaia2-agent:latest';
const BOAT = join(GOLDEN, 'scenarios/time/time_calendar_boat_trip.json');
const containers: string[] = [];

afterAll(async () => {
  for (const c of containers) await run('podman', ['rm', '-f', c]).catch(() => undefined);
});

async function start(env: Record<string, string>, scenario = BOAT, extra: string[] = []): Promise<string> {
  const args = ['run', '-d', '--label', 'gaia2.test=daemon', '-v', `${scenario}:/var/gaia2/custom_scenario.json:ro`, ...extra];
  for (const [k, v] of Object.entries(env)) args.push('-e', `${k}=${v}`);
  args.push(IMAGE, 'bash', '/opt/gaia2-init-entrypoint.sh');
  const { stdout } = await run('podman', args);
  const id = stdout.trim();
  containers.push(id);
  return id;
}

/** Runs a command in the container; never throws (exit code returned). */
async function exec(id: string, cmd: string, user = 'root', privileged = false) {
  try {
    const r = await run('podman', ['exec', ...(privileged ? ['--privileged'] : []), '-u', user, id, 'bash', '-c', cmd]);
    return { code: 0, out: r.stdout, err: r.stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, out: x.stdout ?? '', err: x.stderr ?? '' };
  }
}

async function status(id: string): Promise<Record<string, unknown>> {
  const r = await exec(id, 'curl -s http://127.0.0.1:8090/status');
  return r.code === 0 && r.out ? (JSON.parse(r.out) as Record<string, unknown>) : {};
}

async function until<T>(fn: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out waiting in the container');
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** Pid of the process of `user` whose command line contains `pattern` (no procps in the image). */
const pidOf = async (id: string, user: string, pattern: string) =>
  (
    await exec(
      id,
      `for p in /proc/[0-9]*; do [[ $(stat -c %U $p) == ${user} ]] && tr '\\0' ' ' < $p/cmdline | grep -q '${pattern}' && { echo \${p#/proc/}; break; }; done`,
    )
  ).out.trim();

describe('agent image in a real container', () => {
  it('sandbox: the agent cannot read the scenario, state or daemon environment, nor forge events', async () => {
    const id = await start({
      GAIA2_AGENT: 'scripted',
      GAIA2_CLOCK_MODE: 'realtime', // ENV events 20–30 s away keep the run (and the agent) alive
      GAIA2_JUDGE_FINAL_TURN: '1',
      GAIA2_ADAPTER_TOKEN: 'tok-secret-xyz',
      GAIA2_JUDGE_API_KEY: 'judge-secret-123',
      GAIA2_SCRIPT: JSON.stringify([{ reply: "I'll add the trip when the email arrives." }]),
    });
    await until(async () => ((await status(id)).turn === 1 ? true : undefined));

    for (const path of ['/var/gaia2/custom_scenario.json', '/var/gaia2/state/events.jsonl', '/tmp/gaia2-eventd.log']) {
      const r = await exec(id, `cat ${path}`, 'agent');
      expect(r.code, path).not.toBe(0);
      expect(r.err, path).toMatch(/Permission denied/);
    }
    expect((await exec(id, 'ls /var/gaia2/state', 'agent')).code).not.toBe(0);
    expect((await exec(id, 'echo x >> /var/gaia2/state/events.jsonl', 'agent')).code).not.toBe(0);

    const daemon = await pidOf(id, 'gaia2', 'gaia2d');
    expect(daemon).toMatch(/^\d+$/);
    // started from the startup snapshot built with the image (agent-image/setup.sh), with a
    // small young generation and a gc() for after composing (docs/daemon.md, "App state")
    expect((await exec(id, `tr '\\0' ' ' < /proc/${daemon}/cmdline`)).out).toContain(
      '--max-semi-space-size=1 --expose-gc --snapshot-blob /opt/gaia2/gaia2d.blob',
    );
    expect((await exec(id, `cat /proc/${daemon}/environ`, 'agent')).code).not.toBe(0);
    expect((await exec(id, `tr '\\0' ' ' < /proc/${daemon}/cmdline`, 'agent')).out).not.toMatch(/secret/);

    const agent = await pidOf(id, 'agent', 'agent-scripted.mjs');
    expect(agent).toMatch(/^\d+$/);
    // (credential changes make processes non-dumpable: only a privileged exec may look)
    const agentEnv = (await exec(id, `tr '\\0' '\\n' < /proc/${agent}/environ`, 'root', true)).out;
    expect(agentEnv).toContain('HOME=/home/agent');
    expect(agentEnv).not.toMatch(/judge-secret|tok-secret|GAIA2_JUDGE|GAIA2_ADAPTER_TOKEN/);

    const notify = `curl -s -o /dev/null -w '%{http_code}' -X POST -d '{"message":"x"}' http://127.0.0.1:8090/notify`;
    expect((await exec(id, notify, 'agent')).out).toBe('401');
    expect((await exec(id, `${notify} -H 'Authorization: Bearer guess'`, 'agent')).out).toBe('401');

    // An app call as the agent, with a forged event id in its environment, is an agent action.
    const add = await exec(id, "GAIA2_EVENT_ID=Event-ENV-forged calendar add-event --title 'Forged'", 'agent');
    expect(add.code).toBe(0);
    const lines = (await exec(id, 'cat /var/gaia2/state/events.jsonl')).out.trim().split('\n').map((l) => JSON.parse(l));
    const forged = lines.find((l) => l.fn === 'add_calendar_event');
    expect(forged).toBeDefined();
    expect(forged.event_id).toBeUndefined();
    // the agent user's processes read the simulated clock (the preload in /etc/ld.so.preload); root's stay real
    expect((await exec(id, 'date -u +%Y-%m-%d -d tomorrow', 'agent')).out.trim()).toBe('2025-10-10');
    expect((await exec(id, 'date -u +%Y', 'root')).out.trim()).not.toBe('2025');
  }, 180_000);

  it('a volume over the state directory gets the owner and mode the image ships, and the run completes', async () => {
    // (the entrypoint's builtin-only path needs the image's own layout; a mount sends it to `install`)
    const id = await start({ GAIA2_AGENT: 'oracle', GAIA2_JUDGE_FINAL_TURN: '1' }, BOAT, ['--tmpfs', '/var/gaia2/state']);
    const s = await until(async () => {
      const st = await status(id);
      return ['complete', 'error'].includes(String(st.status)) ? st : undefined;
    });
    expect(s).toMatchObject({ status: 'complete', judgment: { success: true } });
    expect((await exec(id, 'stat -c "%U %a" /var/gaia2/state /tmp/gaia2-eventd.log /run/gaia2')).out.trim().split('\n')).toEqual([
      'gaia2 700',
      'gaia2 600',
      'gaia2 755',
    ]);
  });

  it('killing the agent runtime mid-run ends in error with a reason', async () => {
    // A provider that never answers keeps the default agent inside its first run.
    const id = await start({
      GAIA2_AGENT: 'default',
      GAIA2_JUDGE_FINAL_TURN: '1',
      PROVIDER: 'openai-compat',
      MODEL: 'none',
      API_KEY: 'x',
      BASE_URL: 'http://127.0.0.1:9/v1',
    });
    await until(async () => ((await status(id)).connected === true ? true : undefined));
    const agent = await pidOf(id, 'agent', 'agent-default.mjs');
    expect(agent).toMatch(/^\d+$/);
    await exec(id, `kill -9 ${agent}`);
    const s = await until(async () => {
      const st = await status(id);
      return st.status === 'error' ? st : undefined;
    });
    expect(String(s.reason)).toMatch(/agent runtime lost before finishing/);
  }, 180_000);

  it('killing the world daemon leaves a terminal status served on the adapter port', async () => {
    const id = await start({ GAIA2_AGENT: 'oracle', GAIA2_CLOCK_MODE: 'realtime', GAIA2_JUDGE_FINAL_TURN: '1' });
    await until(async () => ((await status(id)).status === 'running' ? true : undefined));
    const daemon = await pidOf(id, 'gaia2', 'gaia2d');
    await exec(id, `kill -9 ${daemon}`);
    const s = await until(async () => {
      const st = await status(id);
      return st.status === 'error' ? st : undefined;
    });
    expect(String(s.reason)).toMatch(/world daemon exited unexpectedly \(killed by signal 9\)/);
    const file = JSON.parse((await exec(id, 'cat /var/gaia2/state/daemon_status.json')).out);
    expect(file.status).toBe('error');
  }, 180_000);
});
