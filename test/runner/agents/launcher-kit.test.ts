// The launchers' shared kit as the layers run it (node gaia2-kit.mjs …): the Gaia2
// instructions every third-party agent gets, with and without Agent2Agent expert apps.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KIT_DIR } from '../../../runner/src/agents/launcher-kit.js';
import { projectRoot } from '../../../runner/src/image/project-root.js';

const kit = join(projectRoot(), KIT_DIR, 'gaia2-kit.mjs');

const instructions = (env: Record<string, string>): string => {
  const r = spawnSync(process.execPath, [kit, 'instructions', 'Bash'], { encoding: 'utf8', env: { PATH: process.env.PATH, ...env } });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
};

describe('launcher kit: instructions', () => {
  it("lists the session's apps for the agent's shell tool, and the world's time", () => {
    const text = instructions({ GAIA2_TOOLS: 'shopping,emails', GAIA2_SIM_TIME: '2025-10-09 09:00:00' });
    expect(text).toContain('- emails\n- shopping\n');
    expect(text).toContain('run it with your shell tool, Bash');
    expect(text).toContain('2025-10-09 09:00:00');
    expect(text).not.toMatch(/expert/i);
  });

  it('Agent2Agent: marks the apps run by an expert agent and says how to hand them a task', () => {
    const text = instructions({ GAIA2_TOOLS: 'shopping,emails', GAIA2_APP_AGENTS: 'shopping' });
    expect(text).toContain('- emails\n- shopping (run by its expert agent: only "shopping expert-agent --task TEXT")\n');
    expect(text).toContain('## Apps run by an expert agent');
    expect(text).toMatch(/can take\s+minutes/);
  });
});
