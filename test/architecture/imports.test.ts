// The import rules of docs/architecture.md (scripts/import-rules.ts) hold for the whole
// source: no import goes up a layer, no file is in an import cycle, no two top folders import
// each other. The same check run on a small tree that breaks each rule once finds each break,
// so a pass here means something.
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkImports, LAYERS } from '../../scripts/import-rules.js';

// A copy of the fixture with the workspace link `npm ci` makes, so that its imports of
// @gaia2/contract resolve as the project's do.
let FIXTURE = '';
beforeAll(() => {
  FIXTURE = mkdtempSync(join(tmpdir(), 'import-rules-'));
  cpSync(join(import.meta.dirname, '../fixtures/import-rules'), FIXTURE, { recursive: true });
  mkdirSync(join(FIXTURE, 'node_modules/@gaia2'), { recursive: true });
  symlinkSync('../../agent-image', join(FIXTURE, 'node_modules/@gaia2/contract'));
});
afterAll(() => rmSync(FIXTURE, { recursive: true, force: true }));

describe('import rules', () => {
  it('the source breaks none of them', async () => {
    const c = await checkImports();
    // Both trees were read (a check of nothing would pass).
    expect(c.modules).toBeGreaterThan(300);
    expect(c.violations).toEqual([]);
    expect(c.folderCycles).toEqual([]);
  }, 180_000);

  it('each kind of break is found, type-only imports included', async () => {
    const c = await checkImports(FIXTURE);
    const text = c.violations.join('\n');
    // plan/ (bottom layer) importing config/ — a type-only import.
    expect(text).toContain('runner/src/plan: import above its layer: runner/src/plan/vocabulary.ts → runner/src/config/resolver.ts');
    // The same two files import each other.
    expect(text).toMatch(/no-circular: runner\/src\/(plan\/vocabulary|config\/resolver)\.ts/);
    // A folder that is in no layer.
    expect(text).toContain('runner/src: folder without a layer: runner/src/wild/');
    // The image never imports the host.
    expect(text).toContain('agent-image/src/world: import above its layer: agent-image/src/world/host.ts → runner/src/wild/stray.ts');
    expect(c.folderCycles).toEqual(['runner/src/config ⇄ runner/src/plan']);
  }, 60_000);

  it('the host reaches image code by the package name only, and only what the package exports', async () => {
    const c = await checkImports(FIXTURE);
    const own = c.violations.filter((v) => v.includes('runner/src/config/state-dir.ts'));
    // The same file by a relative path into agent-image/src: broken (it is exported, so only this rule).
    // A subpath the exports map does not list does not resolve: broken.
    // By name (@gaia2/contract/paths → agent-image/src/contract/paths.ts): no rule broken.
    expect(own.sort()).toEqual([
      'runner/src: image code by path: runner/src/config/state-dir.ts → agent-image/src/contract/paths.ts',
      'runner/src: unresolved @gaia2/contract import: runner/src/config/state-dir.ts → @gaia2/contract/world/host',
    ]);
    // The image's own code does not take the host's way in.
    expect(c.violations).toContain('agent-image/src: its own code by the name @gaia2/contract: agent-image/src/world/host.ts → agent-image/src/contract/paths.ts');
  }, 60_000);

  it('every layer table names each folder once', () => {
    for (const layers of Object.values(LAYERS)) {
      const all = layers.flat();
      expect(new Set(all).size).toBe(all.length);
    }
  });
});
