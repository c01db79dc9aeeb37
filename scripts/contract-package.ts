// The one way the host reaches the image's code: the workspace package @gaia2/contract
// (agent-image/package.json), imported by name. Its `exports` map is the boundary — a subpath
// it does not list does not resolve — and these rules keep the host from going round it: an
// import of agent-image/src by relative path, or one that lands on a file the map does not
// export, is a broken rule; and the image's own code does not use the name (it is the host's
// way in). docs/architecture.md, "The contract package".
import type { IForbiddenRuleType } from 'dependency-cruiser';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const CONTRACT_PACKAGE = '@gaia2/contract';
export const CONTRACT_DIR = 'agent-image';

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/**
 * The files the package exports, as patterns of paths from the project root (a `*` subpath
 * stands for any file it matches). None when the package is absent: then the host may import
 * no image code at all.
 */
export function contractTargets(root: string): string[] {
  const file = join(root, CONTRACT_DIR, 'package.json');
  if (!existsSync(file)) return [];
  const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; exports?: Record<string, string> };
  if (pkg.name !== CONTRACT_PACKAGE) throw new Error(`${CONTRACT_DIR}/package.json: name is ${pkg.name}, expected ${CONTRACT_PACKAGE}`);
  return Object.values(pkg.exports ?? {}).map((t) => `^${esc(join(CONTRACT_DIR, t))}$`.replace('\\*', '[^/]+'));
}

/** The rules on the host's imports of image code, for dependency-cruiser. */
export function contractRules(root: string): IForbiddenRuleType[] {
  const targets = contractTargets(root);
  return [
    {
      name: 'runner/src: image code by path',
      comment: `the host imports the image's code only by the package name ${CONTRACT_PACKAGE}, never by a path into agent-image/src`,
      severity: 'error',
      from: { path: '^runner/src/' },
      to: { path: '^agent-image/src/', dependencyTypesNot: ['aliased-workspace'] },
    },
    {
      name: `runner/src: image code outside ${CONTRACT_PACKAGE}`,
      comment: `the host imports only the files ${CONTRACT_DIR}/package.json exports`,
      severity: 'error',
      from: { path: '^runner/src/' },
      to: { path: '^agent-image/src/', ...(targets.length ? { pathNot: targets } : {}) },
    },
    {
      name: `agent-image/src: its own code by the name ${CONTRACT_PACKAGE}`,
      comment: 'the package is the host\'s way in; inside the image, code imports code by relative path (and the layers judge it)',
      severity: 'error',
      from: { path: '^agent-image/src/' },
      // (from inside the package the name is a self-reference, which dependency-cruiser does not
      // call a workspace alias: what it never is, is a local relative path)
      to: { path: '^agent-image/src/', dependencyTypesNot: ['local'] },
    },
    {
      name: `runner/src: unresolved ${CONTRACT_PACKAGE} import`,
      comment: `a subpath ${CONTRACT_DIR}/package.json does not export (or the workspace link is missing: npm ci makes it)`,
      severity: 'error',
      from: { path: '^runner/src/' },
      to: { path: `^${esc(CONTRACT_PACKAGE)}(/|$)`, couldNotResolve: true },
    },
  ];
}
