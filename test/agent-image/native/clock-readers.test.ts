// The two readers of the simulated clock, built from agent-image/native on this host and run
// against a live writer of the clock file (this test process: the daemon's SimClock and
// ClockFile, at a path of its own): the preload library under dynamic programs (date with any
// options, python3, node, a C program), file times both ways, the exec helper under a static
// program, pass-through where the clock is not the process's, a held clock, a fast-forward jump
// and deadline waits that end on simulated time without spinning.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimClock, START_HOLD } from '../../../agent-image/src/world/clock.js';
import { ClockFile } from '../../../agent-image/src/world/clock-file.js';
import { SIM_CLOCK_FILE_ENV, REAL_CLOCK_ENV } from '../../../agent-image/src/contract/sim-clock.js';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..', '..');
const programs = join(import.meta.dirname, 'programs');
const START = 1_760_000_400; // 2025-10-09 09:00:00 UTC
const SIM_DAY = '2025-10-09';
const REAL_DAY = new Date().toISOString().slice(0, 10);
const UID = process.getuid!();

const dir = mkdtempSync(join(tmpdir(), 'gaia2-native-'));
const bin = (name: string) => join(dir, name);
const clockPath = join(dir, 'clock');
let clockFile: ClockFile;
let clock: SimClock;

/** The environment of a process on the agent's side: the preload, the clock file. */
const agentEnv = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  ...process.env,
  LD_PRELOAD: bin('libgaia2clock.so'),
  [SIM_CLOCK_FILE_ENV]: clockPath,
  ...extra,
});

async function out(cmd: string, args: string[], env = agentEnv()): Promise<string> {
  return (await run(cmd, args, { env, encoding: 'utf8' })).stdout.trim();
}

const probe = async (cmd: string, args: string[] = [], env = agentEnv()) =>
  JSON.parse(await out(cmd, args, env)) as { day: string; realtime: number; coarse: number; gettimeofday: number; time: number; dumpable: number };

beforeAll(async () => {
  await run('sh', [join(root, 'agent-image/native/build.sh'), dir]);
  await run('gcc', ['-O2', '-o', bin('probe'), join(programs, 'clock-probe.c')]);
  await run('gcc', ['-O2', '-static', '-o', bin('probe-static'), join(programs, 'clock-probe.c')]);
  await run('gcc', ['-O2', '-pthread', '-o', bin('waits'), join(programs, 'waits.c')]);
  // The writer: the daemon's own clock and file, the agent being this process's user.
  clockFile = new ClockFile(clockPath, UID);
  clock = new SimClock({ start: START, publish: (a) => clockFile.write(a) });
  clock.release(START_HOLD);
}, 120_000);

afterAll(() => clockFile?.close());

describe('the preload library in dynamic programs', { timeout: 120_000 }, () => {
  it('date with any options, python3, node and a C program read the simulated clock', async () => {
    expect(await out('date', ['-u', '+%F'])).toBe(SIM_DAY);
    expect(await out('date', ['-u', '-d', 'tomorrow', '+%F'])).toBe('2025-10-10');
    expect(await out('date', ['-u', '-d', '+2 hours', '+%F %H'])).toBe(`${SIM_DAY} 11`);
    expect(await out('python3', ['-c', 'import datetime; print(datetime.datetime.now(datetime.timezone.utc).date())'])).toBe(SIM_DAY);
    expect(await out('node', ['-e', 'console.log(new Date().toISOString().slice(0, 10))'])).toBe(SIM_DAY);
    const c = await probe(bin('probe'));
    expect(c.day).toBe(SIM_DAY);
    for (const t of [c.realtime, c.coarse, c.gettimeofday, c.time]) expect(Math.abs(t - clock.now())).toBeLessThan(120);
    // the same programs without the preload: the host's own day
    expect(await out('date', ['-u', '+%F'], process.env)).toBe(REAL_DAY);
  });

  it('file times: the stat family shows them simulated, the utime family sets them from simulated time', async () => {
    const f = join(dir, 'touched');
    await out('touch', [f]); // now
    expect(await out('date', ['-u', '-r', f, '+%F'])).toBe(SIM_DAY);
    expect(await out('python3', ['-c', `import os, datetime; print(datetime.datetime.utcfromtimestamp(os.stat(${JSON.stringify(f)}).st_mtime).date())`])).toBe(SIM_DAY);
    expect(await out('date', ['-u', '-r', f, '+%F'], process.env)).toBe(REAL_DAY); // on disk: real time
    await out('touch', ['-d', '2025-10-12 08:30:00 UTC', f]);
    expect(await out('date', ['-u', '-r', f, '+%F %T'])).toBe('2025-10-12 08:30:00');
    expect(await out('stat', ['-c', '%y', f])).toMatch(/^2025-10-12 08:30:00/); // statx, as coreutils reads it
    // Not faked: Node's fs.stat makes the statx system call itself, past the C library.
    expect(await out('node', ['-e', `console.log(require('fs').statSync(${JSON.stringify(f)}).mtime.toISOString().slice(0, 4))`])).not.toBe('2025');
  });

  it('passes through where the clock is not the process’s: GAIA2_REAL_CLOCK=1, no file, another uid, a bad file', async () => {
    expect(await out('date', ['-u', '+%F'], agentEnv({ [REAL_CLOCK_ENV]: '1' }))).toBe(REAL_DAY);
    expect(await out('date', ['-u', '+%F'], agentEnv({ [SIM_CLOCK_FILE_ENV]: join(dir, 'absent') }))).toBe(REAL_DAY);
    const other = join(dir, 'clock-other-uid');
    const o = new ClockFile(other, UID + 1);
    o.write(clock.anchor);
    o.close();
    expect(await out('date', ['-u', '+%F'], agentEnv({ [SIM_CLOCK_FILE_ENV]: other }))).toBe(REAL_DAY);
    const bad = join(dir, 'clock-bad');
    writeFileSync(bad, Buffer.alloc(64, 7));
    expect(await out('date', ['-u', '+%F'], agentEnv({ [SIM_CLOCK_FILE_ENV]: bad }))).toBe(REAL_DAY);
    writeFileSync(bad, 'G2CK');
    expect(await out('date', ['-u', '+%F'], agentEnv({ [SIM_CLOCK_FILE_ENV]: bad }))).toBe(REAL_DAY); // short
  });
});

describe('TLS under the simulated clock', { timeout: 120_000 }, () => {
  it('certificates are checked against the real clock: one issued today is valid, while the programs read the simulated day', async () => {
    // notBefore: now, a year after the scenario's date
    await run('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '30', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost',
      '-keyout', join(dir, 'tls.key'), '-out', join(dir, 'tls.crt')]);
    const server = createServer({ key: readFileSync(join(dir, 'tls.key')), cert: readFileSync(join(dir, 'tls.crt')) }, (_q, r) => r.end('ok\n'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const url = `https://localhost:${(server.address() as AddressInfo).port}/`;
    try {
      expect(await out('curl', ['-sS', '--cacert', join(dir, 'tls.crt'), url])).toBe('ok');
      const node = "require('https').get(process.argv[1], (r) => console.log(r.statusCode, new Date().toISOString().slice(0, 10))).on('error', (e) => console.log(e.code))";
      expect(await out('node', ['-e', node, url], agentEnv({ NODE_EXTRA_CA_CERTS: join(dir, 'tls.crt') }))).toBe(`200 ${SIM_DAY}`);
      const py = 'import ssl, sys, urllib.request, datetime; c = ssl.create_default_context(cafile=sys.argv[2]); print(urllib.request.urlopen(sys.argv[1], context=c).status, datetime.date.today())';
      expect(await out('python3', ['-c', py, url, join(dir, 'tls.crt')])).toBe(`200 ${SIM_DAY}`);
    } finally {
      server.close();
    }
  });
});

describe('simclock-exec and a static program', { timeout: 120_000 }, () => {
  it('the static program reads the real clock by itself, the simulated one under the helper', async () => {
    expect((await probe(bin('probe-static'))).day).toBe(REAL_DAY); // the preload never loads into it
    const c = await probe(bin('simclock-exec'), [bin('probe-static')]);
    expect(c.day).toBe(SIM_DAY);
    for (const t of [c.realtime, c.coarse, c.gettimeofday, c.time]) expect(Math.abs(t - clock.now())).toBeLessThan(120);
  });

  it('a program that makes itself non-dumpable is told it did, and still gets its answers', async () => {
    const c = await probe(bin('simclock-exec'), [bin('probe-static'), 'nodump']);
    expect(c.day).toBe(SIM_DAY);
    expect(c.dumpable).toBe(1); // prctl(PR_SET_DUMPABLE, 0) answered, not done
    // without the helper the same call takes effect
    expect((await probe(bin('probe-static'), ['nodump'])).dumpable).toBe(0);
  });

  it('exits as its program did, forwards SIGTERM, takes its program along when killed, and runs the program as it is where the clock is not its own', async () => {
    const exit = await run(bin('simclock-exec'), ['sh', '-c', 'exit 7'], { env: agentEnv() }).catch((e: { code: number }) => e.code);
    expect(exit).toBe(7);
    const child = spawn(bin('simclock-exec'), [bin('waits'), 'sleep', '600000'], { env: agentEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    await new Promise<void>((r) => child.stderr.once('data', () => r())); // "waiting"
    child.kill('SIGTERM');
    const [code, signal] = await new Promise<[number | null, string | null]>((r) => child.once('exit', (c, s) => r([c, s])));
    expect({ code, signal }).toEqual({ code: null, signal: 'SIGTERM' });
    expect((await probe(bin('simclock-exec'), [bin('probe-static')], agentEnv({ [REAL_CLOCK_ENV]: '1' }))).day).toBe(REAL_DAY);
    // a helper killed outright takes its program with it (it could not read the clock any more)
    const killed = spawn(bin('simclock-exec'), [bin('waits'), 'sleep', '600000'], { env: agentEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    await new Promise<void>((r) => killed.stderr.once('data', () => r()));
    const program = Number(readFileSync(`/proc/${killed.pid}/task/${killed.pid}/children`, 'utf8').trim());
    expect(existsSync(`/proc/${program}`)).toBe(true);
    killed.kill('SIGKILL');
    for (let i = 0; i < 500 && existsSync(`/proc/${program}/cmdline`) && readFileSync(`/proc/${program}/cmdline`).length > 0; i++) await new Promise((w) => setTimeout(w, 20));
    expect(existsSync(`/proc/${program}/cmdline`) && readFileSync(`/proc/${program}/cmdline`).length > 0).toBe(false); // gone, or a zombie
    const r = await run(bin('simclock-exec'), [join(dir, 'no-such-program')], { env: agentEnv() }).catch((e: { code: number; stderr: string }) => e);
    expect(r).toMatchObject({ code: 127, stderr: expect.stringContaining('no-such-program') });
  });
});

/** Starts `waits MODE MS`, resolved once it waits. */
async function startWait(mode: string, ms: number) {
  const child = spawn(bin('waits'), [mode, String(ms)], { env: agentEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  const done = new Promise<{ rc: string; before: number; after: number; deadline: number; cpu: number; spurious: number }>((resolve, reject) =>
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(stdout)) : reject(new Error(`waits ${mode} exited ${code}`)))),
  );
  await new Promise<void>((r) => child.stderr.once('data', () => r()));
  return { child, done };
}

describe('deadlines and a clock that stops and jumps', { timeout: 120_000 }, () => {
  it('absolute deadlines end on simulated time, with the process asleep meanwhile', async () => {
    for (const mode of ['sleep', 'cond', 'sem', 'mutex']) {
      const r = await (await startWait(mode, 1500)).done;
      expect(r.rc, mode).toBe(mode === 'sleep' ? '0' : 'ETIMEDOUT');
      expect(r.after, mode).toBeGreaterThanOrEqual(r.deadline); // on the simulated clock
      expect(r.deadline - START * 1e9, mode).toBeLessThan(86_400e9); // the deadline was a simulated one
      // a waiter that polled the clock would have burnt most of the 1.5 s on the CPU
      expect(r.cpu, mode).toBeLessThan(300e6);
    }
    // a condvar on CLOCK_MONOTONIC keeps its own deadlines (no simulated time in them)
    const m = await (await startWait('cond-mono', 300)).done;
    expect(m).toMatchObject({ rc: 'ETIMEDOUT', spurious: 0 });
    expect(m.after).toBeGreaterThanOrEqual(m.deadline);
  });

  it('while the clock is held, time stands and deadlines wait; released, they end', async () => {
    clock.hold('test');
    try {
      const a = await out('date', ['-u', '+%s.%N']);
      await new Promise((r) => setTimeout(r, 300));
      expect(await out('date', ['-u', '+%s.%N'])).toBe(a);
      expect((await probe(bin('simclock-exec'), [bin('probe-static')])).realtime).toBe(Math.floor(Number(a)));
      const w = await startWait('cond', 200);
      const s = await startWait('sleep', 200);
      await new Promise((r) => setTimeout(r, 1500)); // real time passes: the simulated deadline does not come
      expect(w.child.exitCode).toBeNull();
      expect(s.child.exitCode).toBeNull();
      clock.release('test');
      const [cond, sleep] = await Promise.all([w.done, s.done]);
      expect(cond.rc).toBe('ETIMEDOUT');
      expect(cond.after).toBeGreaterThanOrEqual(cond.deadline);
      expect(sleep.after).toBeGreaterThanOrEqual(sleep.deadline);
    } finally {
      clock.release('test');
    }
  });

  it('a fast-forward jump ends a wait for a deadline an hour ahead', async () => {
    const w = await startWait('sem', 3_600_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(w.child.exitCode).toBeNull();
    clock.jumpTo(clock.now() + 3600);
    const r = await w.done;
    expect(r.rc).toBe('ETIMEDOUT');
    expect(r.after).toBeGreaterThanOrEqual(r.deadline);
  });
});
