// Which of our additions to the contract an image has (its gaia2.features label), asked once
// per engine and image: reference images have none and are driven the reference way.
import { parseImageFeatures } from '../../../agent-image/src/contract/index.js';
import type { ContainerEngine } from '../engine/index.js';
import { ConfigError } from '../plan/errors.js';

const known = new WeakMap<ContainerEngine, Map<string, Set<string>>>();

export async function imageFeatures(engine: ContainerEngine, image: string): Promise<Set<string>> {
  let byImage = known.get(engine);
  if (!byImage) known.set(engine, (byImage = new Map()));
  const hit = byImage.get(image);
  if (hit) return hit;
  const labels = await engine.imageLabels(image).catch(() => null);
  const features = parseImageFeatures(labels);
  // A missing image is not remembered: it may be built before the next run.
  if (labels) byImage.set(image, features);
  return features;
}

/**
 * A phase that only our image implements (noise, agent2agent) must not silently run as the
 * standard phase on an image without it. A missing image is left to the run's own
 * image_missing handling.
 */
export async function requireImageFeature(engine: ContainerEngine, image: string, feature: string, what: string): Promise<void> {
  const labels = await engine.imageLabels(image).catch(() => null);
  if (labels && !parseImageFeatures(labels).has(feature))
    throw new ConfigError(`image ${image} does not implement ${what} (its gaia2.features label lacks "${feature}"); rebuild it with gaia2-runner build-image`);
}
