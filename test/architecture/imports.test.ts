// The import rules of docs/architecture.md (scripts/import-rules.ts) hold for the whole
// source: no import goes up a layer, no file is in an import cycle, no two top folders import
// each other. The same check run on a small tree that breaks each rule once finds each break,
// so a pass here means something.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkImports, LAYERS } from '../../scripts/import-rules.js';

const FIXTURE = join(import.meta.dirname, '../fixtures/import-rules');

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

  it('every layer table names each folder once', () => {
    for (const layers of Object.values(LAYERS)) {
      const all = layers.flat();
      expect(new Set(all).size).toBe(all.length);
    }
  });
});
