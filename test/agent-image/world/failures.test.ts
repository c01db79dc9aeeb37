// Every failure path ends in a terminal status with a reason (W5): agent never connects,
// agent lost mid-run, idle agent, bad scenario.
import { describe, expect, it } from 'vitest';
import { connectToDaemon } from '../../../agent-image/src/agents/client.js';
import { composeWorld } from '../../../agent-image/src/main/compose/compose-world.js';
import { ScenarioError } from '../../../agent-image/src/contract/scenario.js';
import { readStatusFile } from '../../../agent-image/src/world/status-file.js';
import { socketWorld, tempStateDir, testSettings } from './run-world.js';
import { join } from 'node:path';

const SCENARIO = 'scenarios/search/search_email_flight_code.json';

describe('terminal status with a reason on every failure path', () => {
  it('agent never connects → error', async () => {
    const w = await socketWorld(SCENARIO, { connectTimeoutSec: 0.3 });
    const s = await w.world.finished();
    w.server.close();
    expect(s.status).toBe('error');
    expect(s.reason).toMatch(/agent never connected within 0.3s/);
    expect(readStatusFile(join(w.stateDir, 'daemon_status.json'))?.status).toBe('error');
  });

  it('agent connection lost mid-run → error naming the turn', async () => {
    const w = await socketWorld(SCENARIO);
    const conn = await connectToDaemon({ agent: 'scripted', socketPath: w.socketPath });
    conn.onMessage(() => conn.close()); // dies while working on the task
    conn.ready();
    const s = await w.world.finished();
    w.server.close();
    expect(s.status).toBe('error');
    expect(s.reason).toMatch(/agent runtime lost before finishing \(turn 0 of 1\)/);
  });

  it('a run that fails (state error) is no answer: error status with its kind, no reply line, no judgment', async () => {
    const w = await socketWorld(SCENARIO);
    const conn = await connectToDaemon({ agent: 'scripted', socketPath: w.socketPath });
    conn.onMessage((m) => conn.reply(m.run_id, 'Error: anthropic API error 401', 'error', 'provider_error'));
    conn.ready();
    const s = await w.world.finished();
    w.server.close();
    conn.close();
    expect(s.status).toBe('error');
    expect(s.error_kind).toBe('provider_error');
    expect(s.reason).toMatch(/provider_error.*401/);
    expect(s.judgment).toBeUndefined();
    expect(s.turn).toBe(0);
  });

  it('connected agent that never answers → idle timeout (GAIA2_IDLE_TIMEOUT)', async () => {
    const w = await socketWorld(SCENARIO, { idleTimeoutSec: 0.4 });
    const conn = await connectToDaemon({ agent: 'scripted', socketPath: w.socketPath });
    conn.ready();
    const s = await w.world.finished();
    w.server.close();
    conn.close();
    expect(s.status).toBe('error');
    expect(s.reason).toMatch(/idle timeout/);
  });

  it('progress messages keep a slow agent alive', async () => {
    const w = await socketWorld(SCENARIO, { idleTimeoutSec: 0.4 });
    const conn = await connectToDaemon({ agent: 'scripted', socketPath: w.socketPath });
    conn.onMessage((m) => {
      const beat = setInterval(() => conn.progress('thinking'), 100);
      setTimeout(() => {
        clearInterval(beat);
        conn.reply(m.run_id, 'Your code is K7QX2M.');
      }, 900);
    });
    conn.ready();
    const s = await w.world.finished();
    w.server.close();
    expect(s.status).toBe('complete');
  });

  it('a second agent connection is refused while one is active', async () => {
    const w = await socketWorld(SCENARIO);
    const first = await connectToDaemon({ agent: 'scripted', socketPath: w.socketPath });
    await expect(connectToDaemon({ agent: 'intruder', socketPath: w.socketPath, connectTimeoutMs: 300 })).rejects.toThrow(
      /already connected/,
    );
    first.close();
    w.server.close();
  });

  it('a bad scenario is a clear error naming the file and field', async () => {
    const bad = JSON.stringify({ apps: [], events: [{ event_type: 'ENV' }] });
    await expect(
      composeWorld({ scenario: bad, scenarioFile: 'bad.json', stateDir: tempStateDir(), settings: testSettings() }),
    ).rejects.toThrow(ScenarioError);
    await expect(
      composeWorld({ scenario: bad, scenarioFile: 'bad.json', stateDir: tempStateDir(), settings: testSettings() }),
    ).rejects.toThrow(/bad\.json: field "events\.0\.event_id"/);
  });
});
