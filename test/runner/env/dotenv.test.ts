import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDotenv, loadEnvForCli } from '../../../runner/src/env/index.js';

const SAMPLE = [
  '# comment line',
  'FIRST=one',
  'export SECOND="two words"',
  'THIRD=three # trailing comment',
  'EMPTY=',
  'EMPTY_EXISTING=filled',
  'EXISTING=from-file',
  'BARE',
  "LITERAL='${FIRST}-raw'",
  'REF=${FIRST}-x',
  'GAIA2_JUDGE_MODEL=gpt-judge',
  '',
].join('\n');

function file(text: string): string {
  const d = mkdtempSync(join(tmpdir(), 'envf-'));
  writeFileSync(join(d, '.env'), text);
  return join(d, '.env');
}

describe('dotenv loading (python-dotenv semantics)', () => {
  it('handles comments, export, quotes, trailing comments, empty values; keeps the real env', () => {
    const env: NodeJS.ProcessEnv = { EXISTING: 'real', EMPTY_EXISTING: '' };
    const r = loadDotenv(file(SAMPLE), env);
    expect(r.written).toEqual(['FIRST', 'SECOND', 'THIRD', 'EMPTY', 'EMPTY_EXISTING', 'BARE', 'LITERAL', 'REF']);
    expect(env).toMatchObject({ FIRST: 'one', SECOND: 'two words', THIRD: 'three', EMPTY: '', EMPTY_EXISTING: 'filled', EXISTING: 'real', BARE: '' });
    expect(env.LITERAL).toBe('${FIRST}-raw');
    expect(env.REF).toBe('one-x');
  });

  it('never loads judge settings from a dotenv file, and says so', () => {
    const env: NodeJS.ProcessEnv = {};
    const lines: string[] = [];
    loadEnvForCli(file(SAMPLE), (l) => lines.push(l), env);
    expect(env.GAIA2_JUDGE_MODEL).toBeUndefined();
    expect(lines.join('\n')).toContain('Ignoring judge defaults from .env; keep judge config in TOML or CLI: GAIA2_JUDGE_MODEL');
    expect(lines.join('\n')).toContain('Loaded env vars from');
  });

  it('an explicit file that changes nothing says the environment kept precedence', () => {
    const lines: string[] = [];
    loadEnvForCli(file('A=1\n'), (l) => lines.push(l), { A: 'set' });
    expect(lines).toEqual([expect.stringMatching(/^Read env file .* \(existing environment kept precedence\)$/)]);
  });

  it('a missing or directory --env-file is a config error', () => {
    expect(() => loadDotenv('/nonexistent/.env', {})).toThrow(/env file does not exist/);
    const d = mkdtempSync(join(tmpdir(), 'envd-'));
    mkdirSync(join(d, 'x'));
    expect(() => loadDotenv(join(d, 'x'), {})).toThrow(/is a directory/);
  });

  it('finds the default .env from the current directory upwards', () => {
    const d = mkdtempSync(join(tmpdir(), 'envup-'));
    writeFileSync(join(d, '.env'), 'UPWARD_KEY=found\n');
    mkdirSync(join(d, 'sub/deeper'), { recursive: true });
    const cwd = process.cwd();
    process.chdir(join(d, 'sub/deeper'));
    try {
      const env: NodeJS.ProcessEnv = {};
      loadEnvForCli(undefined, () => {}, env);
      expect(env.UPWARD_KEY).toBe('found');
    } finally {
      process.chdir(cwd);
    }
  });
});
