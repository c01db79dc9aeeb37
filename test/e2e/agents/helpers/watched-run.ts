// One run of a third-party agent with the connections of its layer's containers watched
// (connection-watch.ts): what network.test.ts and openclaw-providers.test.ts assert on.
import type { UnitBackend } from '../../../../runner/src/engine/index.js';
import { watchConnections, type WatchedContainer } from './connection-watch.js';
import { agentLayer, runAgentOnce, type AgentUnderTest, type DrivenRun } from './third-party-run.js';

export interface WatchedRun {
  run: DrivenRun & { key: string };
  containers: WatchedContainer[];
}

/** Builds the layer when missing, then runs `o` with every container of that layer watched. */
export async function watchedRun(engine: UnitBackend, image: string, a: AgentUnderTest, o: Parameters<typeof runAgentOnce>[2]): Promise<WatchedRun> {
  const layer = await agentLayer(engine, image, a.name);
  const socketPath = (await engine.describe()).endpoint.replace(/^unix:\/\//, '');
  const watch = watchConnections(socketPath, layer.tag);
  const run = await runAgentOnce(image, a, o).catch(async (e: unknown) => {
    await watch.stop();
    throw e;
  });
  const containers = await watch.stop();
  if (containers.length === 0) throw new Error(`no container of ${layer.tag} was seen: ${JSON.stringify(watch.diagnostics())}`);
  return { run, containers };
}
