import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { oomKills } from '../../../agent-image/src/platform/oom-kills.js';

describe('oomKills', () => {
  const d = mkdtempSync(join(tmpdir(), 'oom-kills-'));
  const v2 = join(d, 'memory.events');
  const v1 = join(d, 'memory.oom_control');
  writeFileSync(v2, 'low 0\nhigh 0\nmax 12\noom 3\noom_kill 2\noom_group_kill 0\n');
  writeFileSync(v1, 'oom_kill_disable 0\nunder_oom 0\noom_kill 5\n');

  it("reads the memory cgroup's kill count, v2 first, then v1", () => {
    expect(oomKills([v2, v1])).toBe(2);
    expect(oomKills([join(d, 'absent'), v1])).toBe(5);
  });

  it('null when no file says (no memory cgroup); `oom` alone is not a kill', () => {
    const none = join(d, 'oom-only');
    writeFileSync(none, 'oom 1\n');
    expect(oomKills([join(d, 'absent'), none])).toBe(null);
  });
});
