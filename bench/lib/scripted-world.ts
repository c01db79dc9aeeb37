// A world run in-process with a fixed list of agent commands (no agent process): the daemon
// writes its real events.jsonl and state files into `stateDir`, as in a container.
import { composeWorld } from '../../agent-image/src/main/compose/compose-world.js';
import { settingsFromEnv } from '../../agent-image/src/world/config.js';

/** Runs `commands` as the agent's tool calls, replies "done" and waits for the end of the run. */
export async function runScripted(scenario: string, stateDir: string, commands: string[][]): Promise<void> {
  const settings = settingsFromEnv({ GAIA2_AGENT: 'scripted', GAIA2_SCRIPT: '[]' });
  const { world } = await composeWorld({ scenario, stateDir, settings });
  let busy = false;
  world.attachAgent({
    name: 'bench-script',
    deliver() {
      const runId = world.newRunId();
      busy = true;
      void (async () => {
        for (const c of commands) await world.agentCli(c);
        busy = false;
        world.agentReply('done', runId);
      })();
      return runId;
    },
    isIdle: () => !busy,
    wakeAt: () => null,
    shutdown() {},
  });
  world.start();
  world.markReady();
  const status = await world.finished();
  if (status.status !== 'complete') throw new Error(`scripted run: ${status.status} ${status.reason}`);
}
