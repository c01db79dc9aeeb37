// Waiting for a container that was asked to exit (POST /shutdown) to stop, so that removing it
// needs no kill. Each look is an engine inspect (a few ms of the engine's CPU), so the first
// look comes when an exit usually ends, then they follow every 10 ms, backing off.
import type { ContainerHandle } from '../engine/index.js';
import { LatencyEstimate } from './latency-estimate.js';
import { sleep } from './sleep.js';

/** Exit times (shutdown answered → container stopped) per image, shared by this process's runs. */
export const exitEstimate = new LatencyEstimate(20, 1000);

/** Polls until the container has stopped; gives up quietly after timeoutMs (remove() forces it). */
export async function waitExited(c: ContainerHandle, image: string, timeoutMs = 3000): Promise<void> {
  const since = Date.now();
  const deadline = since + timeoutMs;
  await sleep(exitEstimate.firstLookMs(image));
  for (let pause = 10, first = true; Date.now() < deadline; pause = Math.min(200, pause * 1.5), first = false) {
    const lookedAt = Date.now();
    const s = await c.state().catch(() => null);
    if (!s?.running) {
      exitEstimate.record(image, lookedAt - since, first);
      return;
    }
    await sleep(pause);
  }
}
