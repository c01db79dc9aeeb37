// End-to-end suites need a container engine and the agent image. Set both up when missing
// (the same steps as `npm run demo`), so `npm test` works on a fresh clone.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { connectEngine } from '../../runner/src/engine/index.js';
import { ensureImage, DEFAULT_IMAGE } from '../../runner/src/image/index.js';

const root = join(import.meta.dirname, '..', '..');

export default async function setup(): Promise<void> {
  let engine;
  try {
    engine = await connectEngine();
  } catch {
    execFileSync('bash', [join(root, 'scripts/setup-engine.sh')], { stdio: 'inherit' });
    engine = await connectEngine();
  }
  try {
    const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
    await ensureImage(engine, { projectRoot: root, tag: image, log: (l) => process.stderr.write(`[build-image] ${l}\n`) });
  } finally {
    await engine.close();
  }
}
