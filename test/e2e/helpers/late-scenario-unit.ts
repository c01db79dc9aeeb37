// A container of our image that waits for its scenario over the adapter (the oracle agent, a
// token, the ready marker), published on 8090: the unit the contract-addition suites drive by hand.
import { CONTAINER_PATHS, ENV } from '@gaia2/contract';
import type { ContainerHandle, UnitBackend } from '../../../runner/src/engine/index.js';

export function createLateScenarioUnit(engine: UnitBackend, image: string, token: string, labels: Record<string, string>): Promise<ContainerHandle> {
  return engine.create({
    image,
    env: { [ENV.agent]: 'oracle', [ENV.adapterToken]: token, [ENV.scenarioReady]: CONTAINER_PATHS.scenarioReady, [ENV.judgeFinalTurn]: '1' },
    labels,
    entrypoint: ['bash'],
    cmd: [CONTAINER_PATHS.entrypoint],
    network: 'bridge',
    publishPort: 8090,
  });
}
