// A reply with `failure` (the agent's program failed the run on its own) is an ordinary reply:
// the send_message_to_user line, a turn boundary, judged; the daemon records it in the status's
// agent_failures with the reply line's wall clock, which the runner matches against the model
// gateway's record. Driven through the agent socket, as a runtime would.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { connectToDaemon } from '../../../agent-image/src/agents/client.js';
import { isReplyLine } from '../../../agent-image/src/contract/events.js';
import { readStatusFile } from '../../../agent-image/src/world/status-file.js';
import { socketWorld } from './run-world.js';

const SCENARIO = 'scenarios/search/search_email_flight_code.json';

async function playOnce(content: string, failure?: { detail: string }, scenario = SCENARIO) {
  const w = await socketWorld(scenario);
  const conn = await connectToDaemon({ agent: 'external', socketPath: w.socketPath });
  conn.onMessage((m) => conn.reply(m.run_id, content, 'final', undefined, failure ? { failure } : undefined));
  conn.ready();
  const s = await w.world.finished();
  w.server.close();
  conn.close();
  return { s, w };
}

describe('reply.failure: the program failed on its own', () => {
  it('is judged like any reply and recorded in agent_failures with the reply line’s wall clock', async () => {
    const { s, w } = await playOnce('Error: the agent failed (exit code 3): model output unparsable', { detail: 'exit code 3; last stderr: SyntaxError' });
    // Judged, not an infrastructure error (hard checks only here: this scenario's writes are
    // none and its reply text is the soft check's, so the verdict is a pass).
    expect(s.status).toBe('complete');
    expect(s.error_kind).toBeUndefined();
    expect(s.judgment?.success).toBe(true);
    expect(s.turn).toBe(1);
    expect(s.last_response).toBe('Error: the agent failed (exit code 3): model output unparsable');
    expect(s.agent_failures).toHaveLength(1);
    const f = s.agent_failures![0]!;
    expect(f).toMatchObject({ turn: 1, text: 'Error: the agent failed (exit code 3): model output unparsable', detail: 'exit code 3; last stderr: SyntaxError' });
    const replies = w.lines().filter(isReplyLine);
    expect(replies).toHaveLength(1);
    expect(replies[0]!.args).toEqual({ content: f.text });
    // The runner's window for this turn ends at this stamp: it must be the reply line's own.
    expect(f.wall_t).toBe(replies[0]!.wall_t);
    expect(f.sim_time).toBe(replies[0]!.sim_t);
    // daemon_status.json (what the runner collects) holds it too.
    expect(readStatusFile(join(w.stateDir, 'daemon_status.json'))?.agent_failures).toEqual(s.agent_failures);
  });

  it('a failed turn without the task’s writes is a failed judgment (stopped), not an error', async () => {
    const { s } = await playOnce('Error: the agent failed (exit code 1)', { detail: 'exit code 1' }, 'scenarios/execution/exec_shopping_bottle_order.json');
    expect(s.status).toBe('stopped');
    expect(s.error_kind).toBeUndefined();
    expect(s.judgment?.success).toBe(false);
    expect(s.agent_failures?.map((f) => f.turn)).toEqual([1]);
  });

  it('a reply without failure records none', async () => {
    const { s } = await playOnce('Your code is K7QX2M.');
    expect(s.judgment?.success).toBe(true);
    expect(s.agent_failures).toBeUndefined();
  });

  it('a long failure text is kept whole in the reply line and cut in the status', async () => {
    const text = `Error: ${'x'.repeat(5000)}`;
    const { s, w } = await playOnce(text, { detail: 'd' });
    expect(s.agent_failures![0]!.text).toBe(text.slice(0, 2000));
    expect(w.lines().filter(isReplyLine)[0]!.args).toEqual({ content: text });
  });
});
