// Follows a source file's static imports through the sources, as Node would load them at start:
// value imports and re-exports only (type-only imports and dynamic `import()` load nothing), into
// the image's code through the workspace package @gaia2/contract too.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

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

/**
 * The source file a package specifier names when the package is a workspace of this project
 * (@gaia2/contract: linked into node_modules, its exports are .ts files), else null: a real
 * package, which Node loads from node_modules.
 */
function workspaceSource(from: string, spec: string): string | null {
  let file: string;
  try {
    file = createRequire(from).resolve(spec);
  } catch {
    return null;
  }
  return file.endsWith('.ts') && !file.includes('/node_modules/') ? file : null;
}

/**
 * Walks the static imports from `entry`: `onFile` gets every source file reached and
 * `onPackage` every package specifier, each with the chain of files that reaches it.
 */
export function walkStaticImports(entry: string, o: { onFile?: (file: string, chain: string[]) => void; onPackage?: (spec: string, chain: string[]) => void }): void {
  const seen = new Set<string>();
  const walk = (file: string, chain: string[]): void => {
    if (seen.has(file)) return;
    seen.add(file);
    o.onFile?.(file, chain);
    for (const spec of staticImports(readFileSync(file, 'utf8'))) {
      if (spec.startsWith('node:') || spec.endsWith('.json')) continue;
      if (spec.startsWith('.')) {
        const next = resolveSource(file, spec);
        if (next) walk(next, [...chain, next]);
        continue;
      }
      const source = workspaceSource(file, spec);
      if (source) walk(source, [...chain, source]);
      else o.onPackage?.(spec, chain);
    }
  };
  walk(entry, [entry]);
}
