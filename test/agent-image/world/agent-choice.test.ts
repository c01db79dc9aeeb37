// Which runtime plays without GAIA2_AGENT: the reference runner's oracle profile passes no
// PROVIDER, so no PROVIDER means the oracle; a PROVIDER means the LLM agent. The choice and
// what made it are reported in daemon_status.json; an oracle with nothing to play is a clear
// setup error naming the file.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { composeWorld } from '../../../agent-image/src/main/compose/compose-world.js';
import { settingsFromEnv, SettingsError } from '../../../agent-image/src/world/config.js';
import { parsePyJson } from '../../../agent-image/src/contract/pyjson.js';
import { readGolden } from './golden.js';
import { tempStateDir } from './run-world.js';

const SCENARIO = 'scenarios/search/search_email_flight_code.json';

describe('agent runtime choice', () => {
  it('GAIA2_AGENT wins; else no PROVIDER → oracle, a PROVIDER → default', () => {
    expect(settingsFromEnv({})).toMatchObject({ agent: 'oracle', agentChosenBy: 'no PROVIDER', clockMode: 'fast-forward' });
    expect(settingsFromEnv({ PROVIDER: '  ' })).toMatchObject({ agent: 'oracle', agentChosenBy: 'no PROVIDER' });
    expect(settingsFromEnv({ PROVIDER: 'anthropic' })).toMatchObject({ agent: 'default', agentChosenBy: 'PROVIDER', clockMode: 'realtime' });
    expect(settingsFromEnv({ GAIA2_AGENT: ' Scripted ', PROVIDER: 'openai' })).toMatchObject({ agent: 'scripted', agentChosenBy: 'GAIA2_AGENT' });
    expect(settingsFromEnv({ GAIA2_AGENT: 'default' })).toMatchObject({ agent: 'default', agentChosenBy: 'GAIA2_AGENT' });
  });

  it('the oracle chosen for lack of a PROVIDER plays and says so in daemon_status.json', async () => {
    const stateDir = tempStateDir();
    const c = await composeWorld({ scenario: readGolden(SCENARIO), scenarioFile: SCENARIO, stateDir, settings: settingsFromEnv({ GAIA2_JUDGE_FINAL_TURN: '1' }) });
    expect(c.oracle).not.toBeNull();
    c.world.start();
    c.world.markReady();
    const final = await c.world.finished();
    expect(final.status).toBe('complete');
    expect(final.judgment?.success).toBe(true);
    const onDisk = JSON.parse(readFileSync(join(stateDir, 'daemon_status.json'), 'utf8')) as Record<string, unknown>;
    expect(onDisk).toMatchObject({ agent_runtime: 'oracle', agent_runtime_chosen_by: 'no PROVIDER', ever_connected: true });
  });

  it('an LLM provider picks the default agent, reported before any agent attached', async () => {
    const stateDir = tempStateDir();
    const c = await composeWorld({ scenario: readGolden(SCENARIO), scenarioFile: SCENARIO, stateDir, settings: settingsFromEnv({ PROVIDER: 'openai' }) });
    expect(c.oracle).toBeNull();
    c.world.start();
    expect(c.world.status).toMatchObject({ agent_runtime: 'default', agent_runtime_chosen_by: 'PROVIDER', ever_connected: false });
    c.world.fail('test over');
  });

  it('no PROVIDER and no oracle events: a setup error naming the file and what to set', async () => {
    const raw = parsePyJson(readGolden(SCENARIO)) as { events: Array<{ event_type?: string }> };
    raw.events = raw.events.filter((e) => e.event_type !== 'AGENT');
    const attempt = composeWorld({ scenario: raw, scenarioFile: 'no-oracle.json', stateDir: tempStateDir(), settings: settingsFromEnv({}) });
    await expect(attempt).rejects.toThrow(SettingsError);
    await expect(attempt).rejects.toThrow(/no-oracle\.json: neither GAIA2_AGENT nor PROVIDER is set.*no oracle events.*PROVIDER/);
    // Named explicitly, the oracle is not second-guessed.
    const named = await composeWorld({ scenario: raw, scenarioFile: 'no-oracle.json', stateDir: tempStateDir(), settings: settingsFromEnv({ GAIA2_AGENT: 'oracle' }) });
    expect(named.oracle).not.toBeNull();
  });
});
