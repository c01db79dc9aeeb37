// The provider key never enters an agent's container (issue N: "a canary-key test covers every
// agent image"). While a suite's programs talk to their double, every running container of the
// agent's layer is looked into once, through the engine API: each process's environment and
// command line, and every file the container added or changed on top of its image (the look
// of the gateway suites, helpers/gateway-canary.ts). The suite then asserts the container's
// gateway token is there and the key is not.
import type Docker from 'dockerode';
import { dockerAt, lookInside, type ContainerLook } from '../../helpers/gateway-canary.js';

/** The running containers of an agent layer (by its tag) created since `since` (Unix seconds). */
export async function layerContainers(docker: Docker, layerTag: string, since: number): Promise<Docker.ContainerInfo[]> {
  const running = await docker.listContainers({ filters: { label: ['gaia2.managed=1'], status: ['running'] } });
  return running.filter((x) => x.Created >= since).filter((x) => x.Image === layerTag || x.Image.endsWith(`/${layerTag}`) || `localhost/${x.Image}` === layerTag);
}

export interface ContainerLooks {
  looks: ContainerLook[];
  /** Looks into the layer's running containers not looked into yet (called before each answer). */
  look(): Promise<void>;
}

export function containerLooks(dockerHost: string, layerTag: string): ContainerLooks {
  const docker = dockerAt(dockerHost);
  const looks: ContainerLook[] = [];
  // Each container is looked into once; the looks of several containers run side by side (one
  // after the other, a sample's first answer waited for every earlier container's look: tens of
  // seconds on its simulated clock on a busy machine).
  const looking = new Map<string, Promise<void>>();
  // Only containers made after the watch began: a container left running by an earlier,
  // killed run of the same layer is not one of this suite's.
  const since = Math.floor(Date.now() / 1000) - 1;
  const lookInto = async (name: string): Promise<void> => {
    // A container that ended between the listing and the look (a short run beside the suite's) has nothing left to show.
    const t0 = Date.now();
    const look = await lookInside(docker, name).catch((e: { statusCode?: number }) => {
      if (e.statusCode === 404 || e.statusCode === 409) return null;
      throw e;
    });
    if (look) looks.push(look);
    process.stderr.write(`[looks] ${name}: ${look ? `${look.changed} changed files` : 'ended first'} in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
  };
  return {
    looks,
    // An answer waits for the looks of the containers running now (started here or in flight).
    async look() {
      const waits: Array<Promise<void>> = [];
      for (const c of await layerContainers(docker, layerTag, since)) {
        const name = (c.Names[0] ?? c.Id).replace(/^\//, '');
        if (!looking.has(name)) looking.set(name, lookInto(name));
        waits.push(looking.get(name)!);
      }
      await Promise.all(waits);
    },
  };
}
