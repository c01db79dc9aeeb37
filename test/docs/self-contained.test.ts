// docs/ and the code stand alone: no tracked file may send the reader outside the repository
// (the design notes and specs these were written from are not part of it). Test fixtures are
// data recorded elsewhere and are exempt.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const OUTSIDE = [
  new RegExp(['spec', '/[A-Za-z0-9_-]+', '\\.md'].join('')),
  new RegExp(['DESIGN', '\\.md'].join('')),
  new RegExp(['\\.\\./', 'shared'].join('')),
  new RegExp(['/work/', 'shared'].join('')),
];

function trackedTextFiles(): string[] {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  // This file holds sample references to prove the check works.
  const self = 'test/docs/self-contained.test.ts';
  return files.filter((f) => f !== self && !f.startsWith('test/fixtures/') && !/\.(png|jpg|gif|ico|woff2?|parquet|gz|tar)$/i.test(f));
}

export function outsideReferences(files: readonly string[], read: (f: string) => string): string[] {
  const hits: string[] = [];
  for (const f of files) {
    let text: string;
    try {
      text = read(f);
    } catch {
      continue; // deleted in the work tree
    }
    text.split('\n').forEach((line, i) => {
      if (OUTSIDE.some((re) => re.test(line))) hits.push(`${f}:${i + 1}: ${line.trim().slice(0, 120)}`);
    });
  }
  return hits;
}

describe('the repository is self-contained', () => {
  it('no tracked file outside test/fixtures points at specs, design notes or ../shared', () => {
    const files = trackedTextFiles();
    expect(files.length).toBeGreaterThan(100);
    expect(outsideReferences(files, (f) => readFileSync(join(ROOT, f), 'utf8'))).toEqual([]);
  });

  it('the check finds each kind of reference', () => {
    const texts: Record<string, string> = {
      'a.ts': '// see spec/runner.md §5',
      'b.md': 'as DESIGN.md says',
      'c.ts': "import x from '../shared/y'",
      'd.md': 'read /work/shared/golden',
      'e.ts': '// docs/contract.md is fine',
    };
    expect(outsideReferences(Object.keys(texts), (f) => texts[f]!).map((h) => h.split(':')[0])).toEqual(['a.ts', 'b.md', 'c.ts', 'd.md']);
  });
});
