// The backend seam of docs/architecture.md, checked statically beside the import rules (run by
// scripts/import-rules.ts, so by `npm test` and `npx tsx scripts/import-rules.ts`): outside
// runner/src/engine/ no code may ask which backend it is. It fails on a file outside engine/
// that
//
// - imports a concrete engine class (a class of engine/ that implements UnitBackend or
//   ManifestOutput, or extends such a class) from its file or a file re-exporting it,
//   type-only imports included;
// - tests `instanceof` one;
// - compares a backend's kind: `….backend.kind`/`….engine.kind` (also `.name`) against anything,
//   a `switch` on one, or any comparison with the name of a registered kind (plan/backend.ts
//   BACKENDS) other than the default one, whose name "local" is also a dataset target's kind and
//   is caught by the first form.
//
// What depends on the backend goes through engine/registry.ts and the backend's capabilities.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const SRC = 'runner/src';
const ENGINE = `${SRC}/engine/`;

function tsFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? tsFiles(p) : n.endsWith('.ts') ? [p] : [];
  });
}

/** Source without comments (line numbers kept), so a comment that names a kind is no comparison. */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, (m) => m.replace(/[^\n]/g, ' ')).replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** The registered kinds, from plan/backend.ts's BACKENDS list (default first). */
export function backendKinds(root: string): string[] {
  const file = join(root, SRC, 'plan/backend.ts');
  if (!existsSync(file)) return [];
  const list = /BACKENDS\s*=\s*\[([^\]]*)\]/.exec(readFileSync(file, 'utf8'))?.[1] ?? '';
  return [...list.matchAll(/['"]([^'"]+)['"]/g)].map((m) => m[1]!);
}

/** Concrete engine classes: class name → file (relative to root). */
export function engineClasses(root: string): Map<string, string> {
  const found = new Map<string, string>();
  const texts = tsFiles(join(root, ENGINE)).map((f) => ({ file: relative(root, f), text: withoutComments(readFileSync(f, 'utf8')) }));
  // Subclasses of a concrete class are concrete too: repeat until nothing new is found.
  for (let grew = true; grew; ) {
    grew = false;
    for (const { file, text } of texts)
      for (const m of text.matchAll(/class\s+(\w+)(?:\s+extends\s+(\w+))?(?:\s+implements\s+([\w\s,]+))?\s*\{/g)) {
        const [, name, base, ifaces] = m;
        const concrete = (ifaces ?? '').split(',').some((i) => ['UnitBackend', 'ManifestOutput'].includes(i.trim())) || (base !== undefined && found.has(base));
        if (concrete && !found.has(name!)) {
          found.set(name!, file);
          grew = true;
        }
      }
  }
  return found;
}

/** Files of engine/ that hold or re-export a concrete engine class. */
function classFilesOf(root: string, classes: Map<string, string>): Set<string> {
  const files = new Set(classes.values());
  for (const abs of tsFiles(join(root, ENGINE))) {
    const text = withoutComments(readFileSync(abs, 'utf8'));
    const reexports = [...text.matchAll(/export\s*\{([^}]*)\}\s*from/g)].some((m) => m[1]!.split(',').some((n) => classes.has(n.trim().split(/\s+as\s+/)[0]!.replace(/^type\s+/, ''))));
    if (reexports) files.add(relative(root, abs).split('\\').join('/'));
  }
  return files;
}

const at = (text: string, index: number) => text.slice(0, index).split('\n').length;
const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** One line per break: `backend seam: file:line: what`. */
export function checkBackendSeam(root: string): string[] {
  const kinds = backendKinds(root);
  const classes = engineClasses(root);
  const classFiles = classFilesOf(root, classes);
  const names = [...classes.keys()];
  const out: string[] = [];
  const report = (file: string, text: string, index: number, what: string) => out.push(`backend seam: ${file}:${at(text, index)}: ${what}`);
  const kindPath = String.raw`\b\w*(?:backend|engine)\w*(?:\??\.\w+)*\??\.(?:kind|name)\b`;
  const op = String.raw`(?:===|!==|==|!=)`;
  const checks: Array<[RegExp, string]> = [
    [new RegExp(`${kindPath}\\s*${op}|${op}\\s*${kindPath}`, 'gi'), "compares the backend's kind; ask its provider (engine/registry.ts) or its capabilities"],
    [new RegExp(`switch\\s*\\(\\s*${kindPath}\\s*\\)`, 'gi'), "switches on the backend's kind; ask its provider (engine/registry.ts) or its capabilities"],
  ];
  const named = kinds.slice(1);
  if (named.length) {
    const lit = `['"\`](?:${named.map(esc).join('|')})['"\`]`;
    checks.push([new RegExp(`${op}\\s*${lit}|${lit}\\s*${op}`, 'g'), 'compares with a backend kind; ask its provider (engine/registry.ts) or its capabilities']);
  }
  if (names.length) checks.push([new RegExp(`\\binstanceof\\s+(?:${names.map(esc).join('|')})\\b`, 'g'), 'tests for a concrete engine class; ask the backend\'s capabilities']);
  for (const abs of tsFiles(join(root, SRC))) {
    const file = relative(root, abs).split('\\').join('/');
    if (file.startsWith(ENGINE)) continue;
    const text = withoutComments(readFileSync(abs, 'utf8'));
    for (const [re, what] of checks) for (const m of text.matchAll(re)) report(file, text, m.index, what);
    for (const m of text.matchAll(/(?:import|export)\s[^;]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g)) {
      const spec = (m[1] ?? m[2])!;
      const target = relative(root, resolve(dirname(abs), spec.replace(/\.js$/, '.ts'))).split('\\').join('/');
      if (classFiles.has(target)) report(file, text, m.index, `imports ${target}, which holds a concrete engine class`);
    }
  }
  return out;
}
