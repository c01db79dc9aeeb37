// The scripted runtime over the real agent socket (daemon in the same process): runs, replies,
// deliveries logged, negative control failing the judge.
import { afterEach, describe, expect, it } from 'vitest';
import { connectToDaemon } from '../../../agent-image/src/agents/client.js';
import { parseScript, runScripted, ScriptError } from '../../../agent-image/src/agents/scripted/index.js';
import { socketWorld } from '../world/run-world.js';

const closers: Array<() => void> = [];
afterEach(() => {
  for (const c of closers.splice(0)) c();
});

describe('scripted runtime', () => {
  it('passes search_email_flight_code with reads and the answer; deliveries are logged as reads', async () => {
    const w = await socketWorld('scenarios/search/search_email_flight_code.json');
    closers.push(() => w.server.close());
    const conn = await connectToDaemon({ agent: 'scripted', socketPath: w.socketPath });
    expect(conn.welcome.tools).toEqual(['emails']);
    const script = parseScript(
      JSON.stringify({ turns: [{ commands: [['emails', 'list-emails']], reply: 'Your booking confirmation code is K7QX2M.' }] }),
    );
    const [outcome, status] = await Promise.all([runScripted(conn, script), w.world.finished()]);
    expect(status.status).toBe('complete');
    expect(status.judgment?.success).toBe(true);
    expect(status.turn).toBe(1);
    expect(outcome).toEqual({ runs: 1, commands: 1, failedCommands: 0 });
    const fns = w.lines().map((l) => l.fn);
    expect(fns).toEqual(['send_message_to_agent', 'list_emails', 'send_message_to_user']);
    expect(w.lines()[0]!.w).toBe(false);
  });

  it('negative control: a reply without the writes is rejected (stopped, with the judge reason)', async () => {
    const w = await socketWorld('scenarios/execution/exec_shopping_bottle_order.json');
    closers.push(() => w.server.close());
    const conn = await connectToDaemon({ agent: 'scripted', socketPath: w.socketPath });
    const [, status] = await Promise.all([runScripted(conn, parseScript('[{"reply": "done"}]')), w.world.finished()]);
    expect(status.status).toBe('stopped');
    expect(status.judgment?.success).toBe(false);
    expect(status.judgment?.failure_reason).toMatch(/Tool count mismatch/);
    expect(status.reason).toMatch(/judge rejected turn 0/);
  });

  it('rejects malformed scripts with the field named', () => {
    expect(() => parseScript('{"turns": [{"commands": "ls"}]}')).toThrow(ScriptError);
    expect(() => parseScript('{"turns": [{"commands": "ls"}]}')).toThrow(/turns\.0\.commands/);
    expect(() => parseScript('nope')).toThrow(/invalid JSON/);
  });
});
