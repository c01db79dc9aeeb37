// Which of our additions to the contract an image has (its gaia2.features label), asked once
// per engine and image: reference images have none and are driven the reference way.
import { IMAGE_FEATURES_LABEL, OUR_IMAGE_FEATURES, parseImageFeatures } from '@gaia2/contract';
import type { UnitBackend } from '../engine/index.js';
import { ConfigError } from '../plan/errors.js';

const known = new WeakMap<UnitBackend, Map<string, Set<string>>>();

export async function imageFeatures(engine: UnitBackend, image: string): Promise<Set<string>> {
  let byImage = known.get(engine);
  if (!byImage) known.set(engine, (byImage = new Map()));
  const hit = byImage.get(image);
  if (hit) return hit;
  const labels = await imageLabels(engine, image);
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
export async function requireImageFeature(engine: UnitBackend, image: string, feature: string, what: string): Promise<void> {
  const labels = await imageLabels(engine, image);
  if (labels && !parseImageFeatures(labels).has(feature))
    throw new ConfigError(`image ${image} does not implement ${what} (its gaia2.features label lacks "${feature}"); rebuild it with gaia2-runner build-image`);
}

/**
 * An image's labels; null when it is missing. A backend without an image store cannot inspect
 * a registry image: it runs only images `build-image` made and pushed (nothing else takes the
 * scenario over the adapter, which is how files reach its units), so their features are ours.
 */
async function imageLabels(engine: UnitBackend, image: string): Promise<Record<string, string> | null> {
  if (!engine.images) return { [IMAGE_FEATURES_LABEL]: OUR_IMAGE_FEATURES };
  return engine.images.labels(image).catch(() => null);
}
