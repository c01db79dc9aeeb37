// readScenarioFile: the daemon reads its scenario as bytes and decodes them with a TextDecoder
// (faster than readFileSync's 'utf8' for a large file); the text must be exactly the one
// readFileSync(path, 'utf8') gives, for every byte sequence a scenario file could hold.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readScenarioFile } from '../../../../agent-image/src/main/compose/compose-world.js';

const dir = mkdtempSync(join(tmpdir(), 'gaia2-read-scenario-'));
const file = (name: string, bytes: number[] | Buffer) => {
  const p = join(dir, name);
  writeFileSync(p, Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes));
  return p;
};

describe('readScenarioFile', () => {
  it.each([
    ['a leading BOM, kept', [0xef, 0xbb, 0xbf, 0x7b, 0x7d]],
    ['multi-byte text', Buffer.from('{"s": "Zoë — 東京 😀"}', 'utf8')],
    ['a truncated sequence at the end', [0x7b, 0xe2, 0x82]],
    ['invalid bytes mid-text', [0x61, 0xff, 0xc0, 0xaf, 0x62, 0xed, 0xa0, 0x80, 0x63]],
    ['a code point past U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
    ['an empty file', []],
  ])('gives the text readFileSync(utf8) gives: %s', (_, bytes) => {
    const p = file(`s${Math.random()}.json`, bytes as number[] | Buffer);
    expect(readScenarioFile(p)).toBe(readFileSync(p, 'utf8'));
  });

  it('names the file when it is missing', () => {
    expect(() => readScenarioFile(join(dir, 'absent.json'))).toThrow(/absent\.json/);
  });
});
