// The daemon's run status: token counts kept per role, and `usage` (every caller's sum, read by
// runners from before the split) computed from them, so the three can never disagree.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DaemonLog } from '../../../agent-image/src/world/daemon-log.js';
import { RunStatus, type StatusFacts } from '../../../agent-image/src/world/run-status.js';

const FACTS: StatusFacts = { nbTurns: 1, judgment: undefined, simTime: '2025-10-09T12:00:00Z', pendingEvents: 0, judgeErrorKind: undefined, judgeMode: 'hard-only', agent: 'default', connected: true, everConnected: true };
const runStatus = () => new RunStatus(join(mkdtempSync(join(tmpdir(), 'run-status-')), 'daemon_status.json'), new DaemonLog(() => {}), () => FACTS);

describe('RunStatus usage', () => {
  it('keeps each role apart and states usage as their sum, keys of either role included', () => {
    const r = runStatus();
    r.addUsage({ input_tokens: 100, output_tokens: 10, cache_read_tokens: 40 });
    r.addUsage({ input_tokens: 5, output_tokens: 1 }, 'app_agents');
    r.addUsage({ input_tokens: 7, output_tokens: 2, cache_write_tokens: 3, note: 'not a count' }, 'app_agents');
    r.addUsage({ input_tokens: 1, output_tokens: Number.NaN });
    const s = r.status;
    expect(s.agent_usage).toEqual({ input_tokens: 101, output_tokens: 10, cache_read_tokens: 40 });
    expect(s.app_agents_usage).toEqual({ input_tokens: 12, output_tokens: 3, cache_write_tokens: 3 });
    expect(s.usage).toEqual({ input_tokens: 113, output_tokens: 13, cache_read_tokens: 40, cache_write_tokens: 3 });
  });

  it('states no usage at all before anyone reported tokens', () => {
    const s = runStatus().status;
    expect(s.usage).toBeUndefined();
    expect(s.agent_usage).toBeUndefined();
    expect(s.app_agents_usage).toBeUndefined();
  });
});
