// The viewer's browser code (runner/src/viewer/browser/) is real TypeScript: it type-checks
// under its own DOM configuration (as `npm run typecheck` runs it) and bundles into the one
// script the pages load — the script the viewer writes as _viewer.js.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleViewerClient } from '../../../../runner/src/viewer/pages/client-bundle.mjs';
import { ASSET_FILES } from '../../../../runner/src/viewer/pages/page-assets.js';

const root = join(import.meta.dirname, '..', '..', '..', '..');
const browserDir = join(root, 'runner/src/viewer/browser');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const tmp = mkdtempSync(join(tmpdir(), 'viewer-browser-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** tsc's exit code and output on a project. */
function typecheck(project: string): { code: number; out: string } {
  try {
    return { code: 0, out: execFileSync(process.execPath, [tsc, '--noEmit', '-p', project], { encoding: 'utf8' }) };
  } catch (e) {
    const err = e as { status: number; stdout: string };
    return { code: err.status, out: err.stdout };
  }
}

describe('viewer browser code', () => {
  it('type-checks with DOM types and without Node (its tsconfig, as npm run typecheck runs it)', () => {
    expect(typecheck(browserDir)).toEqual({ code: 0, out: '' });
    expect(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.typecheck).toContain('-p runner/src/viewer/browser');
  }, 120_000);

  it('the same check fails on a module with a type error, and on Node in page code', () => {
    writeFileSync(join(tmp, 'bad.ts'), "import { fmtInt } from '" + join(browserDir, 'format.js') + "';\nexport const x: string = fmtInt(1) * 2;\nexport const y = process.argv;\n");
    writeFileSync(join(tmp, 'tsconfig.json'), JSON.stringify({ extends: join(browserDir, 'tsconfig.json'), include: [join(tmp, 'bad.ts')] }));
    const r = typecheck(tmp);
    expect(r.code).not.toBe(0);
    expect(r.out).toMatch(/bad\.ts\(2,\d+\): error TS2362/);
    expect(r.out).toMatch(/bad\.ts\(3,\d+\): error TS2591/);
  }, 120_000);

  it("bundles into one self-contained classic script, the pages' _viewer.js", async () => {
    const js = await bundleViewerClient();
    expect(() => new Script(js)).not.toThrow();
    expect(js).not.toMatch(/\bimport\s*[({'"]|\brequire\(|\bexport\s/);
    // every page kind's renderer is in it
    for (const text of ['Unknown page type.', 'Waiting for results', 'Scenario × run matrix', 'only changed verdicts', 'Search this trace', 'Filter by name, model, agent']) expect(js).toContain(text);
    expect(ASSET_FILES.find(([name]) => name === '_viewer.js')?.[1]).toBe(js);
  });
  // The built CLI writing the same bundle without a bundler: test/e2e/bundled-cli.test.ts.
});
