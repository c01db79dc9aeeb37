// Turns and steers over OpenClaw's gateway (runner/src/agents/openclaw/layer/lib/openclaw-runs.mjs)
// against a scripted gateway client that replays the event sequences the real gateways
// (2026.4.1 and 2026.9.6) sent: a run's lifecycle and chat events, a steered message's run ended
// at once with an empty final, a follow-up run with its own lifecycle and final. The real
// program is driven end to end in openclaw-serve.test.ts (e2e) and the agent suites.
import { describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs of the layer, no types
import { Runs } from '../../../runner/src/agents/openclaw/layer/lib/openclaw-runs.mjs';

const KEY = 'agent:main:main';
type Listener = (event: string, payload: unknown) => void;

/** A gateway client double: chat.send answers with run ids r1, r2, …; the test emits events. */
function gateway() {
  const listeners = new Set<Listener>();
  const sent: string[] = [];
  let n = 0;
  return {
    sent,
    onEvent: (fn: Listener) => (listeners.add(fn), () => listeners.delete(fn)),
    async request(method: string, params: { message: string }) {
      if (method !== 'chat.send') throw new Error(`unexpected ${method}`);
      if (params.message.includes('REFUSE')) throw Object.assign(new Error('missing scope: operator.write'), { detail: { code: 'INVALID_REQUEST' } });
      sent.push(params.message);
      return { runId: `r${++n}`, status: 'started' };
    },
    emit(event: string, payload: Record<string, unknown>) {
      for (const fn of listeners) fn(event, { sessionKey: KEY, ...payload });
    },
    start: (runId: string) => ({ event: 'agent', payload: { runId, stream: 'lifecycle', data: { phase: 'start' } } }),
    end: (runId: string) => ({ event: 'agent', payload: { runId, stream: 'lifecycle', data: { phase: 'end' } } }),
    final: (runId: string, text?: string) => ({ event: 'chat', payload: { runId, state: 'final', ...(text === undefined ? {} : { message: { role: 'assistant', content: [{ type: 'text', text }] } }) } }),
  };
}
type G = ReturnType<typeof gateway>;
const play = (g: G, ...events: Array<{ event: string; payload: Record<string, unknown> }>) => {
  for (const e of events) g.emit(e.event, e.payload);
};
const tick = () => new Promise((r) => setImmediate(r));
const turn = (text: string, n = 1) => ({ turn: n, kind: 'user', text, parts: [{ kind: 'user', text }] });

describe('a turn over the gateway', () => {
  it("sends the message once and replies with its run's final text", async () => {
    const g = gateway();
    const runs = new Runs(g, { sessionKey: KEY });
    const done = runs.turn(turn('hello'));
    await tick();
    const delta = (text: string) => ({ event: 'chat', payload: { runId: 'r1', state: 'delta', message: { content: [{ type: 'text', text }] } } });
    play(g, g.start('r1'), delta('Hel'), delta('Hello.'), g.end('r1'), g.final('r1', 'Hello.'));
    expect(await done).toEqual({ reply: 'Hello.' });
    expect(g.sent).toEqual(['hello']);
  });

  it("ignores a tool step's final and other sessions' runs; an empty final takes the last delta; internal acks are no reply", async () => {
    const g = gateway();
    const runs = new Runs(g, { sessionKey: KEY });
    const done = runs.turn(turn('hello'));
    await tick();
    g.emit('chat', { runId: 'r1', state: 'final', sessionKey: 'agent:main:other', message: { content: [{ type: 'text', text: 'not ours' }] } });
    play(g, g.start('r1'), { event: 'chat', payload: { runId: 'r1', state: 'final', message: { content: [{ type: 'toolCall', name: 'exec' }] } } });
    play(g, { event: 'chat', payload: { runId: 'r1', state: 'delta', message: { content: [{ type: 'text', text: 'All done.' }] } } }, g.final('r1', ''));
    expect(await done).toEqual({ reply: 'All done.' });
    const ack = runs.turn(turn('ping', 2));
    await tick();
    play(g, g.start('r2'), g.final('r2', 'HEARTBEAT_OK'));
    expect(await ack).toEqual({ reply: '' });
  });

  it('a run that ends in error or aborted fails the turn with its message text, else its errorMessage', async () => {
    const g = gateway();
    const runs = new Runs(g, { sessionKey: KEY });
    const a = runs.turn(turn('one'));
    await tick();
    play(g, g.start('r1'), { event: 'chat', payload: { runId: 'r1', state: 'error', errorMessage: '400 the provider refused' } });
    expect(await a).toMatchObject({ failed: '400 the provider refused' });
    const b = runs.turn(turn('two', 2));
    await tick();
    play(g, g.start('r2'), { event: 'chat', payload: { runId: 'r2', state: 'aborted', message: { content: [{ type: 'text', text: 'Stopped.' }] } } });
    expect(await b).toMatchObject({ failed: 'Stopped.' });
    expect(await runs.turn(turn('REFUSE', 3))).toMatchObject({ failed: 'OpenClaw did not take the message: missing scope: operator.write' });
  });
});

describe('a message during a run (queue mode steer)', () => {
  it('steered: its run ends at once with an empty final and no lifecycle of its own → taken; the turn replies with the running run', async () => {
    const g = gateway();
    const runs = new Runs(g, { sessionKey: KEY });
    const done = runs.turn(turn('book a cab'));
    await tick();
    play(g, g.start('r1'));
    const taken = runs.steer({ turn: 1, seq: 1, kind: 'user', text: 'make it a van', parts: [{ kind: 'user', text: 'make it a van' }] });
    await tick();
    play(g, g.final('r2'));
    expect(await taken).toBe(true);
    play(g, g.end('r1'), g.final('r1', 'Booked a van.'));
    expect(await done).toEqual({ reply: 'Booked a van.' });
    expect(g.sent).toEqual(['book a cab', 'make it a van']);
  });

  it('a follow-up: its run starts on its own → not taken; the next turn (the same text, handed back) waits for that run instead of sending it again', async () => {
    const g = gateway();
    const runs = new Runs(g, { sessionKey: KEY });
    const first = runs.turn(turn('book a cab'));
    await tick();
    play(g, g.start('r1'));
    const steer = runs.steer({ turn: 1, seq: 1, kind: 'notification', text: '[Notification] cab arrived', parts: [{ kind: 'notification', text: '[Notification] cab arrived' }] });
    await tick();
    play(g, g.end('r1'), g.final('r1', 'Booked.'));
    expect(await steer).toBe(false);
    expect(await first).toEqual({ reply: 'Booked.' });
    // OpenClaw runs the follow-up by itself; it may even end before the runtime hands it back
    play(g, g.start('r2'), g.end('r2'), g.final('r2', 'Your cab is here.'));
    const second = await runs.turn({ turn: 2, kind: 'notification', text: '[Notification] cab arrived', parts: [{ kind: 'notification', text: '[Notification] cab arrived' }] });
    expect(second).toEqual({ reply: 'Your cab is here.' });
    expect(g.sent).toEqual(['book a cab', '[Notification] cab arrived']);
  });

  it('a handed-back turn with a new part beside it: the new part is sent, and the turn waits for both runs', async () => {
    const g = gateway();
    const runs = new Runs(g, { sessionKey: KEY });
    const first = runs.turn(turn('A'));
    await tick();
    play(g, g.start('r1'));
    const steer = runs.steer({ turn: 1, seq: 1, kind: 'user', text: 'B', parts: [{ kind: 'user', text: 'B' }] });
    await tick();
    play(g, g.final('r1', 'did A'));
    expect(await steer).toBe(false);
    await first;
    play(g, g.start('r2'));
    const second = runs.turn({ turn: 2, kind: 'user', text: 'B\n\nC', parts: [{ kind: 'user', text: 'B' }, { kind: 'user', text: 'C' }] });
    await tick();
    expect(g.sent).toEqual(['A', 'B', 'C']);
    // C joins the running follow-up (steered into it)
    play(g, g.final('r3'), g.end('r2'), g.final('r2', 'did B and C'));
    expect(await second).toEqual({ reply: 'did B and C' });
  });

  it('a message sent while its own turn is still preparing (no run running yet) joins that turn when OpenClaw ends it empty', async () => {
    const g = gateway();
    const runs = new Runs(g, { sessionKey: KEY });
    const done = runs.turn(turn('A'));
    await tick();
    const steer = runs.steer({ turn: 1, seq: 1, kind: 'user', text: 'B', parts: [{ kind: 'user', text: 'B' }] });
    await tick();
    play(g, g.final('r2'));
    expect(await steer).toBe(true);
    play(g, g.start('r1'), g.final('r1', 'did A and B'));
    expect(await done).toEqual({ reply: 'did A and B' });
  });

  // 2026.9.6's start-up phases, as its gateway sent them (agent stream run_status, chat status)
  const status = (runId: string, phase: string) => [
    { event: 'agent', payload: { runId, stream: 'run_status', data: { phase } } },
    { event: 'chat', payload: { runId, state: 'status', phase } },
  ];

  it('2026.9: a message that comes while the run prepares or calls the model first is held, unsent, until a tool of the run starts; then steered in', async () => {
    const g = gateway();
    const log: string[] = [];
    const runs = new Runs(g, { sessionKey: KEY, reportsPhases: true, log: (l: string) => log.push(l) });
    const done = runs.turn(turn('book a cab'));
    await tick();
    play(g, ...status('r1', 'preparing_workspace'), ...status('r1', 'preparing_context'));
    const steer = runs.steer({ turn: 1, seq: 1, kind: 'notification', text: '[Notification] cab arrived', parts: [{ kind: 'notification', text: '[Notification] cab arrived' }] });
    await tick();
    expect(g.sent).toEqual(['book a cab']);
    expect(log.join('\n')).toMatch(/held while run r1 has no tool step yet \(preparing_context\)/);
    play(g, g.start('r1'), ...status('r1', 'starting_model'));
    play(g, { event: 'agent', payload: { runId: 'r1', stream: 'lifecycle', data: { phase: 'model' } } }, { event: 'agent', payload: { runId: 'r1', stream: 'usage', data: { outputTokens: 11 } } });
    await tick();
    expect(g.sent).toEqual(['book a cab']); // the model call alone: not yet
    play(g, { event: 'agent', payload: { runId: 'r1', stream: 'item', data: { kind: 'tool', name: 'exec', phase: 'start' } } });
    await tick();
    expect(g.sent).toEqual(['book a cab', '[Notification] cab arrived']);
    play(g, g.final('r2'));
    expect(await steer).toBe(true);
    play(g, g.end('r1'), g.final('r1', 'Your cab is here.'));
    expect(await done).toEqual({ reply: 'Your cab is here.' });
  });

  it("2026.9: a held message goes in once the run shows a tool step (its command output), or, when the turn ends first, is not taken and comes back as the next turn", async () => {
    const g = gateway();
    const runs = new Runs(g, { sessionKey: KEY, reportsPhases: true });
    const first = runs.turn(turn('A'));
    await tick();
    play(g, ...status('r1', 'preparing_context'));
    const a = runs.steer({ turn: 1, seq: 1, kind: 'user', text: 'B', parts: [{ kind: 'user', text: 'B' }] });
    await tick();
    play(g, { event: 'agent', payload: { runId: 'r1', stream: 'command_output', data: { phase: 'delta' } } });
    await tick();
    expect(g.sent).toEqual(['A', 'B']);
    play(g, g.final('r2'));
    expect(await a).toBe(true);
    play(g, g.end('r1'), g.final('r1', 'did A and B'));
    await first;
    const second = runs.turn(turn('C', 2));
    await tick();
    play(g, ...status('r3', 'preparing_workspace'));
    const c = runs.steer({ turn: 2, seq: 1, kind: 'user', text: 'D', parts: [{ kind: 'user', text: 'D' }] });
    await tick();
    play(g, { event: 'chat', payload: { runId: 'r3', state: 'error', errorMessage: 'provider down' } });
    expect(await second).toMatchObject({ failed: 'provider down' });
    expect(await c).toBe(false);
    expect(g.sent).toEqual(['A', 'B', 'C']);
    const third = runs.turn({ turn: 3, kind: 'user', text: 'D', parts: [{ kind: 'user', text: 'D' }] });
    await tick();
    expect(g.sent).toEqual(['A', 'B', 'C', 'D']);
    play(g, g.start('r4'), g.final('r4', 'did D'));
    expect(await third).toEqual({ reply: 'did D' });
  });

  it('2026.9 (reportsPhases): a turn whose run has reported nothing yet holds a message too; without it (2026.4.1) the message goes at once', async () => {
    const g = gateway();
    const runs = new Runs(g, { sessionKey: KEY, reportsPhases: true });
    const done = runs.turn(turn('A'));
    await tick();
    const steer = runs.steer({ turn: 1, seq: 1, kind: 'user', text: 'B', parts: [{ kind: 'user', text: 'B' }] });
    await tick();
    expect(g.sent).toEqual(['A']);
    play(g, ...status('r1', 'preparing_workspace'), g.start('r1'), { event: 'agent', payload: { runId: 'r1', stream: 'tool', data: { name: 'exec' } } });
    await tick();
    expect(g.sent).toEqual(['A', 'B']);
    play(g, g.final('r2'));
    expect(await steer).toBe(true);
    play(g, g.end('r1'), g.final('r1', 'did A and B'));
    expect(await done).toEqual({ reply: 'did A and B' });

    const old = gateway();
    const runs4 = new Runs(old, { sessionKey: KEY });
    void runs4.turn(turn('A'));
    await tick();
    void runs4.steer({ turn: 1, seq: 1, kind: 'user', text: 'B', parts: [{ kind: 'user', text: 'B' }] });
    await tick();
    expect(old.sent).toEqual(['A', 'B']);
  });
});
