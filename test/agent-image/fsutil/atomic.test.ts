import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileAtomicPiecesSync, writeFileAtomicSync } from '../../../agent-image/src/fsutil/atomic.js';

const dirs: string[] = [];
const tmp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'gaia2-atomic-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('writeFileAtomicPiecesSync', () => {
  it('writes the pieces in order, non-ASCII included, and leaves no temp file', () => {
    const d = tmp();
    const file = join(d, 'emails.json');
    writeFileAtomicPiecesSync(file, (write) => ['{"a": ', '"é😀', 'x'.repeat(100_000), '"}\n'].forEach(write), join(d, 'emails.tmp'));
    expect(readFileSync(file, 'utf8')).toBe(`{"a": "é😀${'x'.repeat(100_000)}"}\n`);
    expect(readdirSync(d)).toEqual(['emails.json']);
  });

  it('keeps the old file and removes the temp file when making the text fails half way', () => {
    const d = tmp();
    const file = join(d, 'emails.json');
    writeFileAtomicSync(file, 'old\n');
    const fails = () =>
      writeFileAtomicPiecesSync(file, (write) => {
        write('new, half');
        throw new Error('a state that cannot be printed');
      });
    expect(fails).toThrow('a state that cannot be printed');
    expect(readFileSync(file, 'utf8')).toBe('old\n');
    expect(readdirSync(d)).toEqual(['emails.json']);
  });
});
