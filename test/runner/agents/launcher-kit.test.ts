// The launchers' shared kit as the layers run it (node gaia2-kit.mjs …): the Gaia2
// instructions every third-party agent gets, with and without Agent2Agent expert apps.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KIT_DIR } from '../../../runner/src/agents/launcher-kit.js';
import { projectRoot } from '../../../runner/src/image/project-root.js';
import { REGISTRY } from '@gaia2/contract/lib/apps/registry';
// @ts-expect-error a plain .mjs of the kit, no types
import { APP_DESCRIPTIONS } from '../../../runner/src/agents/kit/instructions.mjs';

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

describe("launcher kit: the user's instructions template (GAIA2_AGENT_INSTRUCTIONS)", () => {
  // Our own template, with the reference's placeholders (never the reference's text).
  const TEMPLATE = 'Apps (run them with {{EXEC_TOOL}}):\n{{TOOL_LIST}}\n\nAnswer me directly, not through {{MESSAGING_TOOLS}}.\nAgain: {{ EXEC_TOOL }}.\n';

  it('is rendered in place of our instructions: the apps with their descriptions, the messaging apps, the shell tool', () => {
    const text = instructions({ GAIA2_TOOLS: 'shopping,messages,emails,chats', GAIA2_AGENT_INSTRUCTIONS: TEMPLATE });
    expect(text).toBe(
      'Apps (run them with Bash):\n- `chats` — Chat conversations\n- `emails` — Emails\n- `messages` — Messages\n- `shopping` — Shopping\n\nAnswer me directly, not through chats, messages.\nAgain: Bash.\n\n',
    );
  });

  it('a scenario without messaging apps names the two; an Agent2Agent expert app says so', () => {
    const text = instructions({ GAIA2_TOOLS: 'shopping', GAIA2_APP_AGENTS: 'shopping', GAIA2_AGENT_INSTRUCTIONS: TEMPLATE });
    expect(text).toContain('- `shopping` — Shopping (run by its expert agent: only `shopping expert-agent --task TEXT`)\n');
    expect(text).toContain('not through messages, chats.');
  });

  it("knows every app of the world with the registry's description", () => {
    expect(APP_DESCRIPTIONS).toEqual(Object.fromEntries(REGISTRY.map((e) => [e.cli, e.description])));
  });
});
