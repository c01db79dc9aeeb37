// The runtimes' connection to the daemon: the image starts the agent runtime together with the
// daemon (not once the world is composed), so the runtime must find the agent socket however
// late it appears, and say which socket it waited for when it never does.
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { connectToDaemon, type DaemonConnection } from '../../../agent-image/src/agents/client.js';
import { serveAgentSocket } from '../../../agent-image/src/world/sockets.js';
import { composeWorld } from '../../../agent-image/src/main/compose/compose-world.js';
import { readGolden } from '../world/golden.js';
import { tempStateDir, testSettings } from '../world/run-world.js';

const SCENARIO = 'scenarios/search/search_email_flight_code.json';
const closers: Array<() => void> = [];
afterEach(() => {
  for (const c of closers.splice(0)) c();
});

describe('connectToDaemon', () => {
  it('started before the daemon composed its world, it connects once the agent socket is served', async () => {
    const stateDir = tempStateDir();
    const socketPath = join(stateDir, 'agent.sock');
    let connected: DaemonConnection | null = null;
    const connecting = connectToDaemon({ agent: 'scripted', socketPath }).then((c) => (connected = c));
    // The daemon's boot: the world is composed while the runtime is already waiting.
    const composed = await composeWorld({ scenario: readGolden(SCENARIO), scenarioFile: SCENARIO, stateDir, settings: testSettings({ agent: 'scripted' }) });
    await new Promise((r) => setTimeout(r, 50));
    expect(connected).toBeNull(); // no socket yet: still retrying, not failed
    const server = await serveAgentSocket(composed.world, socketPath, composed.tools);
    closers.push(() => server.close());
    composed.world.start();
    const conn = await connecting;
    closers.push(() => conn.close());
    expect(conn.welcome.tools).toEqual(composed.tools);
    expect(composed.world.agentName).toBe('scripted');
  });

  it('gives up after its deadline naming the socket it waited for', async () => {
    const socketPath = join(tempStateDir(), 'agent.sock');
    await expect(connectToDaemon({ agent: 'scripted', socketPath, connectTimeoutMs: 100 })).rejects.toThrow(
      `cannot connect to the world daemon at ${socketPath}`,
    );
  });
});
