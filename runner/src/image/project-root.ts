import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The gaia2-runner package directory (works from sources and from the bundle). */
export function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && JSON.parse(readFileSync(pkg, 'utf8')).name === 'gaia2-runner') return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error('cannot find the gaia2-runner package directory');
    dir = up;
  }
}
