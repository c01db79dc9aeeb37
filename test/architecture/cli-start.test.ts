// Fast start (issue P, item 7): `gaia2-runner --version` and `--help` load the command line's
// registration code only. Every package a command needs for its work (the HTTP client, schemas,
// archives) is imported inside its action. This follows the static imports from cli/main.ts
// through the sources and fails when one of them reaches a package other than commander, so a
// top-level import added to a command file cannot quietly put start-up back to ~0.5 s.
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { staticImports, walkStaticImports } from '../helpers/static-imports.js';

const root = resolve(__dirname, '../..');
const ALLOWED_PACKAGES = new Set(['commander']);

/** Packages reached from `entry` through static imports, each with the chain that reaches it. */
function packagesReached(entry: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  walkStaticImports(entry, {
    onPackage(spec, chain) {
      const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
      if (!found.has(pkg)) found.set(pkg, chain.map((f) => f.slice(root.length + 1)));
    },
  });
  return found;
}

describe('command line start-up', () => {
  it('registering the commands loads no package but commander', () => {
    const reached = packagesReached(join(root, 'runner/src/cli/main.ts'));
    const extra = [...reached].filter(([pkg]) => !ALLOWED_PACKAGES.has(pkg)).map(([pkg, chain]) => `${pkg} via ${chain.join(' → ')}`);
    expect(extra).toEqual([]);
    expect(reached.has('commander')).toBe(true);
  });

  it('the import reader sees value imports and skips type-only ones', () => {
    const src = [
      "import { z } from 'zod';",
      "import type { Command } from 'commander';",
      "export { a, type B } from './a.js';",
      "export { type C } from './c.js';",
      "import './side-effect.js';",
      "const x = await import('undici');",
    ].join('\n');
    expect(staticImports(src)).toEqual(['zod', './a.js', './side-effect.js']);
  });
});
