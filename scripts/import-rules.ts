// The import rules of docs/architecture.md, checked with dependency-cruiser: every import
// (type-only ones included) of runner/src and agent-image/src must go down the layers below,
// no file may take part in an import cycle, and no two top folders may import each other
// (directly or round a loop), and the host reaches the image's code only through the package
// @gaia2/contract, by name (scripts/contract-package.ts). There is no exception list: a new
// folder gets a layer here and in docs/architecture.md, or the check fails. The backend seam (scripts/backend-seam.ts: no
// code outside engine/ asks which backend it is) is checked with them. Run by
// test/architecture/imports.test.ts (so by `npm test`); by hand: `npx tsx scripts/import-rules.ts`.
import { cruise, type ICruiseResult, type IForbiddenRuleType } from 'dependency-cruiser';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkBackendSeam } from './backend-seam.js';
import { contractRules } from './contract-package.js';

/** Layers of each side, lowest first; a folder may import folders of lower layers only. */
export const LAYERS = {
  'runner/src': [
    ['plan', 'secrets', 'fsutil', 'agents'],
    ['net', 'tokens', 'progress', 'dataset', 'record'],
    ['trace', 'env', 'engine'],
    ['usage', 'image', 'report', 'sequences'],
    ['run', 'provenance', 'config', 'atif'],
    ['result-cache', 'viewer', 'gateway'],
    ['orchestrator', 'compare', 'serve'],
    ['phases', 'shards', 'slurm', 'verify'],
    ['submission', 'leaderboard'],
    ['cli'],
  ],
  'agent-image/src': [
    ['contract', 'fsutil', 'platform'],
    ['apps', 'scenario', 'llm'],
    ['judge', 'noise'],
    ['world'],
    ['agents', 'adapter'],
    ['a2a'],
    ['main'],
  ],
} as const satisfies Record<string, readonly (readonly string[])[]>;

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
const anyOf = (side: string, folders: readonly string[]) => `^${esc(side)}/(${folders.map(esc).join('|')})/`;

function layerRules(root: string): IForbiddenRuleType[] {
  const rules: IForbiddenRuleType[] = [];
  for (const [side, layers] of Object.entries(LAYERS)) {
    const all = layers.flat();
    rules.push({
      name: `${side}: folder without a layer`,
      comment: `every folder of ${side} has a layer in scripts/import-rules.ts and docs/architecture.md`,
      severity: 'error',
      from: { path: `^${esc(side)}/`, pathNot: anyOf(side, all) },
      to: {},
    });
    layers.forEach((layer, i) => {
      const below = layers.slice(0, i).flat();
      for (const folder of layer) {
        const allowedOwn = [folder, ...below];
        rules.push({
          name: `${side}/${folder}: import above its layer`,
          comment: `${side}/${folder} may import only ${below.length ? below.join(', ') : 'no other folder of its side'}`,
          severity: 'error',
          from: { path: `^${esc(side)}/${esc(folder)}/` },
          // (the host's imports of image code are judged by contractRules)
          to: { path: side === 'runner/src' ? '^runner/src/' : '^(runner/src|agent-image/src)/', pathNot: anyOf(side, allowedOwn) },
        });
      }
    });
  }
  rules.push(...contractRules(root));
  rules.push({
    name: 'no-circular',
    comment: 'no file takes part in an import cycle (type-only imports count)',
    severity: 'error',
    from: {},
    to: { circular: true },
  });
  return rules;
}

export interface ImportCheck {
  /** One line per broken rule: rule name, importing file → imported file. */
  violations: string[];
  /** Cycles between top folders (each as folder → … → folder). */
  folderCycles: string[];
  /** Files read: a check that saw nothing proves nothing. */
  modules: number;
}

/** Top folder of a module path (side/folder), or null outside the two source trees. */
function topFolder(path: string): string | null {
  const m = /^(runner\/src|agent-image\/src)\/([^/]+)\//.exec(path);
  return m ? `${m[1]}/${m[2]}` : null;
}

/** Strongly connected components of more than one folder (Tarjan). */
function cycles(edges: Map<string, Set<string>>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1) out.push(comp.sort());
    }
  };
  for (const v of edges.keys()) if (!idx.has(v)) visit(v);
  return out;
}

export function folderCycles(result: ICruiseResult): string[] {
  const edges = new Map<string, Set<string>>();
  for (const m of result.modules) {
    const from = topFolder(m.source);
    if (!from) continue;
    for (const d of m.dependencies) {
      const to = topFolder(d.resolved);
      if (!to || to === from) continue;
      if (!edges.has(from)) edges.set(from, new Set());
      edges.get(from)!.add(to);
    }
  }
  return cycles(edges).map((c) => c.join(' ⇄ '));
}

/** Checks the two source trees under root (the project; tests pass a fixture tree). */
export async function checkImports(root: string = ROOT): Promise<ImportCheck> {
  const cwd = process.cwd();
  process.chdir(root);
  try {
    const trees = ['runner/src', 'agent-image/src'].filter((t) => existsSync(join(root, t)));
    const r = await cruise(trees, {
      validate: true,
      ruleSet: { forbidden: layerRules(root) },
      // Type-only imports are dependencies too (a type cycle is still a cycle of ideas).
      tsPreCompilationDeps: true,
      ...(existsSync(join(root, 'tsconfig.json')) ? { tsConfig: { fileName: 'tsconfig.json' } } : {}),
      doNotFollow: { path: 'node_modules' },
      exclude: { path: 'node_modules' },
      moduleSystems: ['es6', 'cjs'],
      // Package names resolve through their `exports` maps, as Node and tsc resolve them, so an
      // import of @gaia2/contract lands on the image file it names (and is judged by the layers).
      enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'node', 'default'] },
    });
    const result = r.output as ICruiseResult;
    const violations = (result.summary.violations ?? []).map((v) => {
      const via = v.cycle?.length ? ` (cycle: ${v.cycle.map((c) => c.name).join(' → ')})` : '';
      return `${v.rule.name}: ${v.from} → ${v.to}${via}`;
    });
    // A folder that imports nothing still needs a layer: its importers are judged by it.
    for (const side of trees) {
      const known = new Set<string>(LAYERS[side as keyof typeof LAYERS].flat());
      for (const d of readdirSync(join(root, side), { withFileTypes: true }))
        if (d.isDirectory() && !known.has(d.name)) violations.push(`${side}: folder without a layer: ${side}/${d.name}/`);
    }
    violations.push(...checkBackendSeam(root));
    return { violations, folderCycles: folderCycles(result), modules: result.modules.length };
  } finally {
    process.chdir(cwd);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const c = await checkImports();
  for (const v of c.violations) console.log(v);
  for (const f of c.folderCycles) console.log(`folder cycle: ${f}`);
  console.log(`${c.modules} modules, ${c.violations.length} broken rules, ${c.folderCycles.length} folder cycles`);
  process.exit(c.violations.length || c.folderCycles.length ? 1 : 0);
}
