// Runs over the agent socket: one run at a time, messages arriving mid-run queued and
// delivered together after the reply (no extra turn boundary), or steered into the run.
import { afterEach, describe, expect, it } from 'vitest';
import { connectToDaemon } from '../../../agent-image/src/agents/client.js';
import type { MessageMsg } from '../../../agent-image/src/contract/agent-protocol.js';
import { socketWorld } from '../world/run-world.js';

const SCENARIO = 'scenarios/search/search_email_flight_code.json';
const closers: Array<() => void> = [];
afterEach(() => {
  for (const c of closers.splice(0)) c();
});

const nextMessage = (queue: MessageMsg[]) =>
  new Promise<MessageMsg>((resolve) => {
    const t = setInterval(() => {
      const m = queue.shift();
      if (m) {
        clearInterval(t);
        resolve(m);
      }
    }, 5);
  });

describe('agent session runs', () => {
  it('queues mid-run messages and delivers them as one run after the reply', async () => {
    const w = await socketWorld(SCENARIO, { judgeFinalTurn: false, clockMode: 'realtime' });
    closers.push(() => w.server.close());
    const conn = await connectToDaemon({ agent: 'test', socketPath: w.socketPath });
    closers.push(() => conn.close());
    const got: MessageMsg[] = [];
    conn.onMessage((m) => got.push(m));
    conn.ready();
    const task = await nextMessage(got);
    expect(task).toMatchObject({ kind: 'user', run_id: 'run-1' });
    expect(w.world.postMessage('first note', 'notification')).toBe('run-1');
    expect(w.world.postMessage('second note', 'notification')).toBe('run-1');
    await new Promise((r) => setTimeout(r, 50));
    expect(got).toEqual([]); // nothing while the run is active
    const fns = () => w.lines().map((l) => l.fn);
    expect(fns()).toEqual(['send_message_to_agent']);
    conn.reply(task.run_id, 'working on it');
    const next = await nextMessage(got);
    expect(next).toMatchObject({ run_id: 'run-2', kind: 'notification', text: 'first note\n\nsecond note' });
    expect(next.parts).toHaveLength(2);
    expect(fns()).toEqual(['send_message_to_agent', 'send_message_to_user', 'send_message_to_agent', 'send_message_to_agent']);
    expect(w.world.status.turn).toBe(1);
  });

  it('steer agents get mid-run messages at once, in the same run', async () => {
    const w = await socketWorld(SCENARIO, { judgeFinalTurn: false, clockMode: 'realtime' });
    closers.push(() => w.server.close());
    const conn = await connectToDaemon({ agent: 'test', socketPath: w.socketPath, steer: true });
    closers.push(() => conn.close());
    const got: MessageMsg[] = [];
    conn.onMessage((m) => got.push(m));
    conn.ready();
    const task = await nextMessage(got);
    w.world.postMessage('note', 'notification');
    const steer = await nextMessage(got);
    expect(steer).toMatchObject({ run_id: task.run_id, steer: true, text: 'note' });
  });

  it('steer announced in ready; a steer handed back with the reply comes back as the next run, recorded once', async () => {
    const w = await socketWorld(SCENARIO, { judgeFinalTurn: false, clockMode: 'realtime', fixes: { finalTurnLastReply: true, chainedEnvTiming: false } });
    closers.push(() => w.server.close());
    const conn = await connectToDaemon({ agent: 'test', socketPath: w.socketPath }); // no steer in hello…
    closers.push(() => conn.close());
    const got: MessageMsg[] = [];
    conn.onMessage((m) => got.push(m));
    conn.ready(true); // …but in ready, once its program said so
    const task = await nextMessage(got);
    w.world.postMessage('late note', 'notification');
    w.world.postMessage('handed back', 'notification');
    expect(await nextMessage(got)).toMatchObject({ steer: true, text: 'late note' });
    expect(await nextMessage(got)).toMatchObject({ steer: true, text: 'handed back' });
    // The runtime saw both steers; its program took the first and not the second.
    conn.reply(task.run_id, 'done', 'final', undefined, { steersSeen: 2, requeue: [{ kind: 'notification', text: 'handed back' }] });
    const next = await nextMessage(got);
    expect(next).toMatchObject({ run_id: 'run-2', kind: 'notification', text: 'handed back' });
    conn.reply(next.run_id, 'ok');
    await new Promise((r) => setTimeout(r, 100));
    const delivered = w.lines().filter((l) => l.fn === 'send_message_to_agent').map((l) => (l.args as { content: string }).content);
    expect(delivered.filter((d) => d === 'handed back')).toHaveLength(1);
    expect(delivered.filter((d) => d === 'late note')).toHaveLength(1);
  });

  it('steers that crossed the reply on the socket (sent after the runtime last looked) are delivered again', async () => {
    const w = await socketWorld(SCENARIO, { judgeFinalTurn: false, clockMode: 'realtime', fixes: { finalTurnLastReply: true, chainedEnvTiming: false } });
    closers.push(() => w.server.close());
    const conn = await connectToDaemon({ agent: 'test', socketPath: w.socketPath, steer: true });
    closers.push(() => conn.close());
    const got: MessageMsg[] = [];
    conn.onMessage((m) => got.push(m));
    conn.ready();
    const task = await nextMessage(got);
    w.world.postMessage('crossing', 'notification');
    await nextMessage(got);
    conn.reply(task.run_id, 'done', 'final', undefined, { steersSeen: 0 });
    expect(await nextMessage(got)).toMatchObject({ run_id: 'run-2', text: 'crossing' });
  });

  it('answers cli and time requests; rejects replies for another run', async () => {
    const w = await socketWorld(SCENARIO, { judgeFinalTurn: false, clockMode: 'realtime' });
    closers.push(() => w.server.close());
    const conn = await connectToDaemon({ agent: 'test', socketPath: w.socketPath });
    closers.push(() => conn.close());
    const got: MessageMsg[] = [];
    conn.onMessage((m) => got.push(m));
    conn.ready();
    await nextMessage(got);
    const r = await conn.cli(['emails', 'list-emails', '--limit', '1']);
    expect(r.exit_code).toBe(0);
    expect(r.stdout).toContain('"emails"');
    const t = await conn.time();
    expect(t.sim_time).toMatch(/^2025-10-09 09:00:0\d$/);
    conn.reply('run-99', 'wrong run');
    await new Promise((res) => setTimeout(res, 50));
    expect(w.world.status.turn).toBe(0);
  });
});
