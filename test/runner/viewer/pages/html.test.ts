// The page shell (pages/html.ts) is shared with pages that do not run the viewer's script (the
// leaderboard, the comparison report): importing it, or them, must not load the client script
// module, which bundles the browser code with esbuild when run from source.
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { walkStaticImports } from '../../../helpers/static-imports.js';

const root = resolve(import.meta.dirname, '../../../..');
const CLIENT_SCRIPT = join(root, 'runner/src/viewer/pages/client-script.ts');

/** The chain of files through which `entry` loads the client script module, or null. */
function clientScriptChain(entry: string): string[] | null {
  let found: string[] | null = null;
  walkStaticImports(join(root, entry), {
    onFile(file, chain) {
      if (file === CLIENT_SCRIPT) found ??= chain.map((f) => f.slice(root.length + 1));
    },
  });
  return found;
}

describe('the client script is loaded only where a page needs it', () => {
  it('the page shell, the leaderboard page and the comparison report do not load it', () => {
    for (const entry of ['runner/src/viewer/pages/html.ts', 'runner/src/leaderboard/render-html.ts', 'runner/src/compare/render.ts']) expect(clientScriptChain(entry), entry).toBeNull();
  });

  it('the viewer writing its assets does (the walk finds it where it is)', () => {
    expect(clientScriptChain('runner/src/viewer/build/assets.ts')).toEqual(['runner/src/viewer/build/assets.ts', 'runner/src/viewer/pages/page-assets.ts', 'runner/src/viewer/pages/client-script.ts']);
  });
});
