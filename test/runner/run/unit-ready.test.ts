// From a started unit to a connected agent, against the real adapter server: the scenario goes
// in through POST /files once the adapter answers — also behind a front that accepts
// connections before anything listens (Docker's userland proxy, an SSH forward) or answers
// 503 (a pod proxy) — with the marker last, exactly once; a refusal by the adapter ends the
// run at once, typed; a unit that dies before it answers is reported as exited. Streamed
// (files-stream): the scenario is read from disk afresh on each attempt, and one changed since
// planning ends the wait at once as invalid_scenario.
import net from 'node:net';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readScenarioEntry, scenarioContent } from '../../../runner/src/dataset/index.js';
import { scenarioJson } from '../dataset/make-scenario.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createAdapterServer, listen } from '../../../agent-image/src/adapter/index.js';
import type { UploadRequest } from '@gaia2/contract/routes';
import type { AdapterEndpoint, ContainerHandle, UnitState } from '../../../runner/src/engine/index.js';
import { acceptsConnections } from '../../../runner/src/net/accepts-connections.js';
import { AdapterClient } from '../../../runner/src/run/adapter-client.js';
import { NEVER_ACCEPTED, waitUnitReady } from '../../../runner/src/run/unit-ready.js';

const TOKEN = 'tok-unit-ready-1';
const closers: Array<() => void> = [];
afterEach(() => {
  for (const c of closers.splice(0)) c();
});

/** The real adapter; the agent "connects" once the marker has been delivered. */
async function adapter(uploadRoot?: string) {
  const batches: string[][] = [];
  let connected = false;
  const { server } = createAdapterServer({
    backend: { status: () => null, connected: () => connected, hasConnected: () => connected, info: () => ({}), post: () => null },
    token: TOKEN,
    ...(uploadRoot ? { uploadRoot, streamFiles: true } : {}),
    putFiles: async (files: UploadRequest['files']) => {
      batches.push(files.map((f) => `${f.path}=${Buffer.from(f.content, 'base64').toString()}`));
      if (files.at(-1)?.path.endsWith('scenario.ready')) setTimeout(() => (connected = true), 30);
    },
  });
  const port = await listen(server, 0, '127.0.0.1');
  closers.push(() => (server.closeAllConnections(), server.close()));
  return { port, batches, connect: () => setTimeout(() => (connected = true), 30) };
}

/**
 * A front that accepts every connection; until `open()` it behaves like Docker's userland
 * proxy for a container that does not listen yet (reads the request, then drops the
 * connection) or like a pod proxy (answers 503). Then it forwards to the adapter.
 */
async function front(target: number, closed: 'reset' | '503') {
  let open = false;
  let refused = 0;
  const server = net.createServer((s) => {
    if (!open) {
      refused++;
      s.once('data', () => (closed === 'reset' ? s.destroy() : s.end('HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\nconnection: close\r\n\r\n')));
      s.on('error', () => undefined);
      return;
    }
    const up = net.connect(target, '127.0.0.1');
    s.pipe(up).pipe(s);
    s.on('error', () => up.destroy());
    up.on('error', () => s.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => server.close());
  return { port: (server.address() as net.AddressInfo).port, open: () => (open = true), refusals: () => refused };
}

function unit(state: UnitState = { status: 'running', running: true, exitCode: null }): ContainerHandle {
  const no = () => Promise.reject(new Error('not used'));
  return { id: 'u1', name: 'u1', start: no, adapter: no, readFile: no, readFiles: no, kill: no, remove: no, state: async () => state, logs: async () => 'boom\n' };
}

const scenario = [
  { path: '/var/gaia2/custom_scenario.json', content: '{"events":[]}', mode: 0o644 },
  { path: '/var/gaia2/scenario.ready', content: '', mode: 0o644 },
];

describe('waitUnitReady', () => {
  it.each(['reset', '503'] as const)('delivers the scenario once, marker last, behind a front that %s before the adapter listens', async (closed) => {
    const a = await adapter();
    const f = await front(a.port, closed);
    // The front accepts from the first moment: the TCP look says yes long before anything listens.
    const ep: AdapterEndpoint = { url: `http://127.0.0.1:${f.port}`, accepting: () => acceptsConnections('127.0.0.1', f.port) };
    setTimeout(f.open, 200);
    const client = new AdapterClient(ep, TOKEN);
    await waitUnitReady({ client, endpoint: ep, container: unit(), lateFiles: scenario, kind: `t-${closed}`, healthSeconds: 10 });
    await client.close();
    expect(f.refusals()).toBeGreaterThan(0);
    expect(a.batches).toEqual([['/var/gaia2/custom_scenario.json={"events":[]}', '/var/gaia2/scenario.ready=']]);
  });

  it('streamed: the scenario read from disk lands whole behind a front that resets (each attempt opens it again)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'ready-stream-')) + '/';
    const a = await adapter(root);
    const f = await front(a.port, 'reset');
    const src = join(root, '..', `planned-${process.pid}.json`);
    writeFileSync(src, JSON.stringify(scenarioJson('streamed', { pad: 'p'.repeat(200_000) })));
    const files = [
      { path: `${root}custom_scenario.json`, content: scenarioContent(readScenarioEntry(src, null)), mode: 0o644 },
      { path: `${root}scenario.ready`, content: '', mode: 0o644 },
    ];
    const ep: AdapterEndpoint = { url: `http://127.0.0.1:${f.port}`, accepting: () => acceptsConnections('127.0.0.1', f.port) };
    setTimeout(f.open, 200);
    const client = new AdapterClient(ep, TOKEN);
    // The marker stands for the agent connecting here; /health says so once it is on disk.
    const poll = setInterval(() => readdirSync(root).includes('scenario.ready') && a.connect(), 20);
    try {
      await waitUnitReady({ client, endpoint: ep, container: unit(), lateFiles: files, streamFiles: true, kind: 't-stream', healthSeconds: 10 });
    } finally {
      clearInterval(poll);
      await client.close();
    }
    expect(f.refusals()).toBeGreaterThan(0);
    expect(readFileSync(`${root}custom_scenario.json`).equals(readFileSync(src))).toBe(true);
    expect(a.batches).toEqual([]); // nothing went the JSON way
  });

  it('streamed: a scenario changed since planning ends the wait at once as invalid_scenario, nothing delivered', async () => {
    const root = mkdtempSync(join(tmpdir(), 'ready-stream-')) + '/';
    const a = await adapter(root);
    const src = join(root, '..', `changed-${process.pid}.json`);
    writeFileSync(src, JSON.stringify(scenarioJson('changed', { pad: 'q'.repeat(200_000) })));
    const content = scenarioContent(readScenarioEntry(src, null));
    writeFileSync(src, readFileSync(src, 'utf8').replace('qqqq', 'rrrr'));
    const ep: AdapterEndpoint = { url: `http://127.0.0.1:${a.port}` };
    const client = new AdapterClient(ep, TOKEN);
    const t0 = Date.now();
    await expect(
      waitUnitReady({ client, endpoint: ep, container: unit(), lateFiles: [{ path: `${root}custom_scenario.json`, content }], streamFiles: true, kind: 't-changed', healthSeconds: 30 }),
    ).rejects.toMatchObject({ kind: 'invalid_scenario', message: `${src}: the scenario file changed after the run was planned; start the run again` });
    expect(Date.now() - t0).toBeLessThan(5000);
    await client.close();
    for (let i = 0; i < 40 && readdirSync(root).length; i++) await new Promise((r) => setTimeout(r, 50));
    expect(readdirSync(root)).toEqual([]);
  });

  it('a refusal by the adapter itself (wrong token) ends the wait at once as container_start_failed', async () => {
    const a = await adapter();
    const ep: AdapterEndpoint = { url: `http://127.0.0.1:${a.port}` };
    const client = new AdapterClient(ep, 'not-the-token');
    const t0 = Date.now();
    await expect(waitUnitReady({ client, endpoint: ep, container: unit(), lateFiles: scenario, kind: 't-401', healthSeconds: 30 })).rejects.toMatchObject({
      kind: 'container_start_failed',
      message: expect.stringMatching(/refused the scenario: POST \/files → HTTP 401/),
    });
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(a.batches).toEqual([]);
    await client.close();
  });

  it('a unit that exits before its adapter answers is container_exited, with its last log line', async () => {
    const f = await front(1, 'reset'); // never opens
    const ep: AdapterEndpoint = { url: `http://127.0.0.1:${f.port}`, accepting: () => acceptsConnections('127.0.0.1', f.port) };
    const client = new AdapterClient(ep, TOKEN);
    await expect(
      waitUnitReady({ client, endpoint: ep, container: unit({ status: 'exited', running: false, exitCode: 3 }), lateFiles: scenario, kind: 't-exit', healthSeconds: 30 }),
    ).rejects.toMatchObject({ kind: 'container_exited', message: expect.stringMatching(/code 3.*boom/) });
    // the engine says it was killed for its memory: oom_killed, as on Kubernetes
    await expect(
      waitUnitReady({ client, endpoint: ep, container: unit({ status: 'exited', running: false, exitCode: 137, oomKilled: true }), lateFiles: scenario, kind: 't-oom', healthSeconds: 30 }),
    ).rejects.toMatchObject({ kind: 'oom_killed', message: expect.stringMatching(/code 137, out of memory: killed for exceeding its memory limit\): .*boom/) });
    await client.close();
  });

  it('a world that died while booting (its stand-in answers, no /files route): the run ends at once with the status it left', async () => {
    const status = { status: 'error', turn: 0, nb_turns: 1, num_events: 0, error_kind: 'oom_killed', reason: 'world daemon exited unexpectedly (killed by signal 9, out of memory) while setting up' } as const;
    const { server } = createAdapterServer({
      backend: { status: () => status, connected: () => false, hasConnected: () => false, info: () => ({}), post: () => null },
      token: TOKEN,
    });
    const port = await listen(server, 0, '127.0.0.1');
    closers.push(() => (server.closeAllConnections(), server.close()));
    const ep: AdapterEndpoint = { url: `http://127.0.0.1:${port}` };
    const client = new AdapterClient(ep, TOKEN);
    const t0 = Date.now();
    await expect(waitUnitReady({ client, endpoint: ep, container: unit(), lateFiles: scenario, kind: 't-dead-world', healthSeconds: 30 })).rejects.toMatchObject({
      kind: 'oom_killed',
      message: expect.stringMatching(/killed by signal 9, out of memory/),
    });
    expect(Date.now() - t0).toBeLessThan(5000);
    await client.close();
  });

  it('runs out of time naming the undelivered scenario and the last error', async () => {
    const f = await front(1, '503');
    const ep: AdapterEndpoint = { url: `http://127.0.0.1:${f.port}` };
    const client = new AdapterClient(ep, TOKEN);
    await expect(waitUnitReady({ client, endpoint: ep, container: unit(), lateFiles: scenario, kind: 't-timeout', healthSeconds: 1 })).rejects.toMatchObject({
      kind: 'health_timeout',
      message: expect.stringMatching(/scenario could not be delivered.*within 1s.*HTTP 503/),
    });
    await client.close();
  });

  it('a running unit whose port never takes a connection: the timeout says so and quotes its log', async () => {
    // A port nothing listens on (bound, then closed): every bare connect is refused.
    const probe = net.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as net.AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const ep: AdapterEndpoint = { url: `http://127.0.0.1:${port}`, accepting: () => acceptsConnections('127.0.0.1', port) };
    const client = new AdapterClient(ep, TOKEN);
    const err = await waitUnitReady({ client, endpoint: ep, container: unit(), lateFiles: scenario, kind: 't-closed', healthSeconds: 1 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'health_timeout', message: expect.stringMatching(/within 1s \(nothing accepts connections on http:\/\/127\.0\.0\.1:\d+ yet\); its log ends: boom$/) });
    expect(NEVER_ACCEPTED.test((err as Error).message)).toBe(true);
    await client.close();
  });

  it('without late files the first /health is the look, and a connected agent ends the wait', async () => {
    const a = await adapter();
    const ep: AdapterEndpoint = { url: `http://127.0.0.1:${a.port}` };
    const client = new AdapterClient(ep, TOKEN);
    // connect the agent the way the test adapter does: deliver a marker out of band first
    await client.putFiles([{ path: '/var/gaia2/scenario.ready', content: '' }]);
    await new Promise((r) => setTimeout(r, 50));
    await waitUnitReady({ client, endpoint: ep, container: unit(), lateFiles: [], kind: 't-none', healthSeconds: 5 });
    expect(a.batches).toHaveLength(1);
    await client.close();
  });

  it("an agent whose program is still starting is waited for past the health timeout, up to the start budget", async () => {
    let starting = true;
    let connected = false;
    const { server } = createAdapterServer({
      backend: { status: () => null, connected: () => connected, hasConnected: () => connected, info: () => (starting ? { agent_starting: true } : {}), post: () => null },
      token: TOKEN,
    });
    const port = await listen(server, 0, '127.0.0.1');
    closers.push(() => (server.closeAllConnections(), server.close()));
    const ep: AdapterEndpoint = { url: `http://127.0.0.1:${port}` };
    const client = new AdapterClient(ep, TOKEN);
    setTimeout(() => ((connected = true), (starting = false)), 2500);
    await waitUnitReady({ client, endpoint: ep, container: unit(), lateFiles: [], kind: 't-starting', healthSeconds: 1, startSeconds: 10 });
    expect(connected).toBe(true);
    // …and no further: a program that never becomes ready ends the wait at the start budget.
    connected = false;
    starting = true;
    await expect(waitUnitReady({ client, endpoint: ep, container: unit(), lateFiles: [], kind: 't-starting', healthSeconds: 1, startSeconds: 2 })).rejects.toMatchObject({
      kind: 'health_timeout',
      message: expect.stringMatching(/agent not ready within 2s \(the agent's program is still starting\)/),
    });
    await client.close();
  });
});
