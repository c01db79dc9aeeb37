// Which of our additions to the contract an image has (its gaia2.features label), asked once
// per engine and image: reference images have none and are driven the reference way.
import { parseImageFeatures } from '../../../agent-image/src/contract/index.js';
import type { ContainerEngine } from '../engine/index.js';

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
