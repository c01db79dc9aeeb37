// The shared script and stylesheet every page links (see pages/page-assets.ts).
import { join } from 'node:path';
import { ASSET_FILES } from '../pages/page-assets.js';
import { writeIfChanged } from './fs-util.js';

/** Writes the assets into `dir`; returns the paths that changed. */
export function writeAssets(dir: string): string[] {
  return ASSET_FILES.filter(([name, content]) => writeIfChanged(join(dir, name), content)).map(([name]) => join(dir, name));
}
