// /health over the real daemon and over the status file it leaves: `connected` latches once an
// agent has connected (a reference runner waits for it before reading /status), `ok` is the
// adapter's own health, and `agent_connected` is the live connection.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connectToDaemon } from '../../../agent-image/src/agents/client.js';
import { createAdapterServer, daemonBackend, fileBackend, listen, MessageBuffer, type AdapterBackend } from '../../../agent-image/src/adapter/index.js';
import { socketWorld, tempStateDir } from '../world/run-world.js';

const SCENARIO = 'scenarios/search/search_email_flight_code.json';
const servers: Array<{ close(): unknown }> = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

async function serve(backend: AdapterBackend) {
  const { server } = createAdapterServer({ backend });
  servers.push(server);
  const port = await listen(server, 0, '127.0.0.1');
  return async (path: string) => (await (await fetch(`http://127.0.0.1:${port}${path}`)).json()) as Record<string, unknown>;
}

describe('adapter backends: /health connected latches for the container\'s life', () => {
  it('daemon backend: false before the agent, true while it works, still true after it replied and left', async () => {
    const w = await socketWorld(SCENARIO);
    servers.push(w.server);
    const get = await serve(daemonBackend(w.world, new MessageBuffer()));
    expect(await get('/health')).toMatchObject({ ok: true, connected: false, agent_connected: false });

    const conn = await connectToDaemon({ agent: 'scripted', socketPath: w.socketPath });
    conn.onMessage((m) => {
      conn.reply(m.run_id, 'All done.');
      conn.close(); // a fast agent: answers at once and goes away
    });
    conn.ready();
    const final = await w.world.finished();
    expect(['complete', 'stopped']).toContain(final.status);
    // The agent left: the live flag drops, the latched one does not.
    await new Promise((r) => setTimeout(r, 20));
    expect(w.world.isConnected).toBe(false);
    const h = await get('/health');
    expect(h).toMatchObject({ ok: true, connected: true, agent_connected: false, status: final.status });
    expect(await get('/status')).toMatchObject({ status: final.status, ever_connected: true, connected: false });
  });

  it('status-only backend (daemon gone): connected follows the ever_connected the daemon wrote', async () => {
    const dir = tempStateDir();
    const file = join(dir, 'daemon_status.json');
    const get = await serve(fileBackend(file));
    expect(await get('/health')).toMatchObject({ ok: true, connected: false, agent_connected: false, status: 'waiting' });
    writeFileSync(file, JSON.stringify({ status: 'error', turn: 0, nb_turns: 1, num_events: 0, reason: 'x', ever_connected: false }));
    expect(await get('/health')).toMatchObject({ ok: true, connected: false, status: 'error' });
    writeFileSync(file, JSON.stringify({ status: 'complete', turn: 1, nb_turns: 1, num_events: 3, ever_connected: true }));
    expect(await get('/health')).toMatchObject({ ok: true, connected: true, agent_connected: false, status: 'complete' });
  });
});
