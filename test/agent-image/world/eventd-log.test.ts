// eventd.log keeps the phrases the trace viewer scrapes (docs/daemon.md, "Logs").
import { describe, expect, it } from 'vitest';
import { composeWorld } from '../../../agent-image/src/main/compose/compose-world.js';
import { DaemonLog } from '../../../agent-image/src/world/daemon-log.js';
import { readGolden } from './golden.js';
import { tempStateDir, testSettings } from './run-world.js';

async function logOf(scenario: string): Promise<string[]> {
  const lines: string[] = [];
  const { world } = await composeWorld({
    scenario: readGolden(scenario),
    stateDir: tempStateDir(),
    settings: testSettings(),
    log: new DaemonLog((l) => lines.push(l)),
  });
  world.start();
  world.markReady();
  await world.finished();
  return lines;
}

describe('eventd.log', () => {
  it('has the reference line format and the phrases the viewer looks for', async () => {
    const multi = await logOf('scenarios/adaptability/adapt_chats_kenji_sync.json');
    for (const l of multi) expect(l).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} gaia2\.eventd (INFO|WARNING|ERROR) /);
    const text = multi.join('\n');
    expect(text).toContain('>>> TURN BOUNDARY DETECTED — turn 1 <<<');
    expect(text).toMatch(/Condition condition_turn_1 PASSED \(smu=1, turn_idx=1\)/);
    expect(text).toContain('JUDGE ACCEPT turn 0');
    expect(text).toMatch(/Time advance: sim=\d+\.\d \(\+0s\), firing 1 ENV actions/);
    expect(text).toMatch(/ {2}ENV\[0\]: MessagingAppV2\.create_and_add_message\(.*\) \[Event-ENV-5b727dd0/);
    expect(text).toMatch(/ {2}result: /);
    expect(text).toContain('Sending 1 bundled notification(s) (turn 1)');
    expect(text).toContain('Notification: chats: New message received in conversation');
  });

  it('logs a rejected intermediate turn as REJECTED … stopping', async () => {
    const lines: string[] = [];
    const { world } = await composeWorld({
      scenario: readGolden('scenarios/execution/exec_messages_hike_group.json'),
      stateDir: tempStateDir(),
      settings: testSettings({ agent: 'scripted' }),
      log: new DaemonLog((l) => lines.push(l)),
    });
    world.attachAgent({ name: 'fake', deliver: () => 'r', isIdle: () => true, wakeAt: () => null, shutdown: () => undefined });
    world.start();
    world.markReady();
    world.agentReply('Done.'); // turn 0 without the two writes
    const s = await world.finished();
    expect(s.status).toBe('stopped');
    expect(lines.join('\n')).toMatch(/JUDGE REJECTED turn 0: Tool count mismatch: .* — stopping/);
  });
});
