// WorldDaemon.onAgentReady: the hook the image's daemon uses to do its one full collection
// after the boot (once the agent's task is delivered) instead of during it.
import { describe, expect, it } from 'vitest';
import { connectToDaemon } from '../../../agent-image/src/agents/client.js';
import { socketWorld } from './run-world.js';

const SCENARIO = 'scenarios/search/search_email_flight_code.json';

describe('WorldDaemon.onAgentReady', () => {
  it('runs once, when the agent is first ready and its task delivered; a late listener runs at once', async () => {
    const w = await socketWorld(SCENARIO, { judgeFinalTurn: false, clockMode: 'realtime' });
    const calls: string[] = [];
    w.world.onAgentReady(() => calls.push(`first, connected=${w.world.isConnected}`));
    const conn = await connectToDaemon({ agent: 'test', socketPath: w.socketPath });
    expect(calls).toEqual([]); // attached (hello answered) but not ready: nothing yet
    const task = new Promise<string>((resolve) => conn.onMessage((m) => resolve(m.text)));
    conn.ready();
    expect(await task).not.toBe('');
    expect(calls).toEqual(['first, connected=true']);
    w.world.markReady(); // a second ready is no new first time
    w.world.onAgentReady(() => calls.push('late'));
    expect(calls).toEqual(['first, connected=true', 'late']);
    conn.close();
    w.server.close();
    w.world.fail('test over');
  });
});
