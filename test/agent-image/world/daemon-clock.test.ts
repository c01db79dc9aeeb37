// The daemon's clock over the agent protocol: held at the scenario's start until the agent's
// first `ready`, held and released by `clock {hold}`, released when the runtime goes away, and
// every change published to the clock file the agent's processes map (decoded here with
// contract/sim-clock.ts, as the native readers read it).
import { closeSync, mkdtempSync, openSync, readSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { composeWorld } from '../../../agent-image/src/main/compose/compose-world.js';
import { serveAgentSocket } from '../../../agent-image/src/world/sockets.js';
import { decodeSimClock, SIM_CLOCK_SIZE, simNsAt } from '../../../agent-image/src/contract/sim-clock.js';
import { encodeLine, lineSplitter, type AgentToDaemon, type DaemonToAgent } from '../../../agent-image/src/contract/agent-protocol.js';
import { readGolden } from './golden.js';
import { tempStateDir, testSettings } from './run-world.js';

const SCENARIO = 'scenarios/search/search_email_flight_code.json';
const START = '2025-10-09 09:00:00';
const closers: Array<() => void> = [];
afterEach(() => {
  for (const c of closers.splice(0)) c();
});

function readClock(path: string) {
  const b = Buffer.alloc(SIM_CLOCK_SIZE);
  const fd = openSync(path, 'r');
  readSync(fd, b, 0, SIM_CLOCK_SIZE, 0);
  closeSync(fd);
  const a = decodeSimClock(b);
  if (!a) throw new Error('clock file unreadable');
  return { ...a, text: new Date(Number(simNsAt(a, process.hrtime.bigint()) / 1_000_000n)).toISOString().slice(0, 19).replace('T', ' ') };
}

async function world(agent: 'scripted' | 'oracle') {
  const stateDir = tempStateDir();
  const clockFile = join(stateDir, 'clock');
  const composed = await composeWorld({
    scenario: readGolden(SCENARIO),
    scenarioFile: SCENARIO,
    stateDir,
    settings: testSettings({ agent, judgeFinalTurn: false, clockMode: 'realtime' }),
    simClockFile: clockFile,
  });
  return { composed, w: composed.world, clockFile, stateDir };
}

/** A raw protocol client: the lines it got, and a send. */
async function rawAgent(socketPath: string) {
  const socket = net.createConnection(socketPath);
  await new Promise<void>((r) => socket.once('connect', () => r()));
  const got: DaemonToAgent[] = [];
  socket.on('data', lineSplitter((l) => got.push(JSON.parse(l) as DaemonToAgent)));
  const send = (m: AgentToDaemon) => socket.write(encodeLine(m));
  const waitFor = async (type: string) => {
    for (let i = 0; i < 400; i++) {
      const m = got.find((x) => x.type === type);
      if (m) return m;
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error(`no ${type} message`);
  };
  return { socket, send, waitFor };
}

/** A started world with its agent socket, and a raw client that said hello. */
async function helloWorld() {
  const { w, clockFile, stateDir } = await world('scripted');
  const sock = join(stateDir, 'agent.sock');
  const server = await serveAgentSocket(w, sock, ['emails']);
  closers.push(() => server.close());
  w.start();
  const a = await rawAgent(sock);
  closers.push(() => a.socket.destroy());
  a.send({ type: 'hello', protocol: 1, agent: 'raw' });
  return { w, a, clockFile };
}

describe('the daemon clock and the agent', () => {
  it('stands at the start until the first ready; clock {hold} holds and releases it; each change is in the file', async () => {
    const { w, a, clockFile } = await helloWorld();
    expect(readClock(clockFile)).toMatchObject({ rate: 0, text: START });
    expect(await a.waitFor('welcome')).toMatchObject({ sim_time: START });
    await new Promise((r) => setTimeout(r, 1100)); // a slow program start: charged to nobody
    expect(w.clock.held).toBe(true);
    expect(w.clock.text()).toBe(START);

    a.send({ type: 'ready' });
    const msg = await a.waitFor('message');
    expect(msg).toMatchObject({ sim_time: START }); // the task arrives at the start time exactly
    expect(w.clock.held).toBe(false);
    const running = readClock(clockFile);
    expect(running.rate).toBe(1);
    expect(running.seq % 2n).toBe(0n);

    a.send({ type: 'clock', hold: true, reason: 'program restarting' });
    for (let i = 0; i < 200 && !w.clock.held; i++) await new Promise((r) => setTimeout(r, 5));
    expect(w.clock.held).toBe(true);
    const held = readClock(clockFile);
    expect(held.rate).toBe(0);
    expect(held.seq).toBeGreaterThan(running.seq);
    const stood = w.clock.now();
    await new Promise((r) => setTimeout(r, 300));
    expect(w.clock.now()).toBe(stood);
    expect(readClock(clockFile).simNs).toBe(held.simNs);

    a.send({ type: 'clock', hold: false });
    for (let i = 0; i < 200 && w.clock.held; i++) await new Promise((r) => setTimeout(r, 5));
    expect(readClock(clockFile).rate).toBe(1);
  });

  it('a runtime that goes away while holding the clock does not leave it held', async () => {
    const { w, a } = await helloWorld();
    a.send({ type: 'ready' });
    await a.waitFor('message');
    a.send({ type: 'clock', hold: true });
    for (let i = 0; i < 200 && !w.clock.held; i++) await new Promise((r) => setTimeout(r, 5));
    expect(w.clock.held).toBe(true);
    a.socket.destroy();
    for (let i = 0; i < 200 && w.clock.held; i++) await new Promise((r) => setTimeout(r, 5));
    expect(w.clock.held).toBe(false);
  });

  it('a hold release before the first ready does not start the clock', async () => {
    const { w, a } = await helloWorld();
    await a.waitFor('welcome');
    a.send({ type: 'clock', hold: false });
    a.send({ type: 'time', id: 1 });
    await a.waitFor('time');
    expect(w.clock.held).toBe(true);
  });

  it('the in-process oracle is ready at once: its clock runs from the start', async () => {
    const { w, clockFile } = await world('oracle');
    w.start();
    w.markReady();
    expect(w.clock.held).toBe(false);
    expect(readClock(clockFile).rate).toBe(1);
    await w.finished();
  });
});
