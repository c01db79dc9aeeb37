// Fast start (issue P, item 7): `gaia2-runner --version` and `--help` load the command line's
// registration code only. Every package a command needs for its work (the HTTP client, schemas,
// archives) is imported inside its action. This follows the static imports from cli/main.ts
// through the sources and fails when one of them reaches a package other than commander, so a
// top-level import added to a command file cannot quietly put start-up back to ~0.5 s.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(__dirname, '../..');
const ALLOWED_PACKAGES = new Set(['commander']);

/** Value imports and re-exports of one file (type-only ones and dynamic `import()` excluded). */
export function staticImports(source: string): string[] {
  const out: string[] = [];
  const re = /^(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;
  for (const m of source.matchAll(re)) {
    // `export { type A, type B } from` carries no value either.
    const clause = m[0].match(/\{([^}]*)\}/)?.[1];
    if (clause && clause.split(',').every((n) => !n.trim() || n.trim().startsWith('type '))) continue;
    out.push(m[1]!);
  }
  return out;
}

function resolveSource(from: string, spec: string): string | null {
  const p = join(dirname(from), spec);
  for (const c of [p.replace(/\.js$/, '.ts'), p, `${p}.ts`, join(p, 'index.ts')]) if (existsSync(c) && c.endsWith('.ts')) return c;
  return null;
}

/** Packages reached from `entry` through static imports, each with the chain that reaches it. */
function packagesReached(entry: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const seen = new Set<string>();
  const walk = (file: string, chain: string[]): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const spec of staticImports(readFileSync(file, 'utf8'))) {
      if (spec.startsWith('node:') || spec.endsWith('.json')) continue;
      if (spec.startsWith('.')) {
        const next = resolveSource(file, spec);
        if (next) walk(next, [...chain, next.slice(root.length + 1)]);
        continue;
      }
      const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
      if (!found.has(pkg)) found.set(pkg, chain);
    }
  };
  walk(entry, [entry.slice(root.length + 1)]);
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
