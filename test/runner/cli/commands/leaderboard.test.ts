// `gaia2-runner leaderboard` end to end in process: the three files, the viewers it builds for
// the links, what it prints, and bad input refused with exit code 2 before anything is written.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../config/in-process-cli.js';
import { finishedRoot } from '../../submission/phase-root.js';
import { datasetRun, writeDatasets } from '../../leaderboard/runs.js';

let root: string;
let a: string;
let g: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'leaderboard-cli-'));
  const d = writeDatasets(root);
  a = await datasetRun({ dataset: d.part, out: join(root, 'a'), model: 'gpt-4.1', provider: 'openai', decide: (id) => (id === 'c' ? 'fail' : 'pass') });
  g = await finishedRoot(() => 'pass', ['standard'], 2);
}, 120_000);

afterAll(() => {
  for (const d of [root, dirname(g)]) rmSync(d, { recursive: true, force: true });
});

describe('leaderboard command', () => {
  it('writes leaderboard.json, .md and .html, builds the viewers it links, prints the chosen format', async () => {
    const out = join(root, 'site');
    const r = await runCliInProcess(['leaderboard', a, g, '--out', out, '--format', 'json', '--title', 'My agents'], root);
    expect(r.code).toBe(0);
    expect(r.out).toBe(readFileSync(join(out, 'leaderboard.json'), 'utf8'));
    const lb = JSON.parse(r.out);
    expect(lb.title).toBe('My agents');
    expect(lb.sections[0].rows.map((x: { run: string }) => x.run)).toEqual(['out/standard', 'a']);
    // a had no viewer: the command built it, and the row links to it
    expect(existsSync(join(a, 'index.html'))).toBe(true);
    const row = lb.sections[0].rows.find((x: { run: string }) => x.run === 'a');
    expect(row.viewer).toBe('../a/index.html');
    const md = readFileSync(join(out, 'leaderboard.md'), 'utf8');
    expect(md).toContain('| [a](../a/index.html) |');
    expect(readFileSync(join(out, 'leaderboard.html'), 'utf8')).toContain('<a href="../a/index.html">a</a>');
    expect(r.err).toContain(`Leaderboard written to ${join(out, 'leaderboard.json')}`);

    const mdOut = await runCliInProcess(['leaderboard', a, '--out', out, '--no-viewer'], root);
    expect(mdOut.out).toBe(readFileSync(join(out, 'leaderboard.md'), 'utf8'));
    expect(mdOut.out.startsWith('# Gaia2 leaderboard\n')).toBe(true);
    const none = await runCliInProcess(['leaderboard', a, '--out', out, '--format', 'none'], root);
    expect([none.code, none.out]).toEqual([0, '']);
  });

  it('--no-viewer builds nothing: a run without a viewer gets no link', async () => {
    const d = writeDatasets(join(root, 'second'));
    const b = await datasetRun({ dataset: d.part, out: join(root, 'b'), decide: () => 'pass' });
    const r = await runCliInProcess(['leaderboard', b, '--out', join(root, 'site2'), '--no-viewer', '--format', 'json'], root);
    expect(r.code).toBe(0);
    expect(existsSync(join(b, 'index.html'))).toBe(false);
    expect(JSON.parse(r.out).sections[0].rows[0].viewer).toBeNull();
  });

  it('bad input: exit code 2, the directory named, nothing written', async () => {
    const out = join(root, 'site3');
    const r = await runCliInProcess(['leaderboard', a, join(root, 'missing'), '--out', out], root);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`leaderboard: not a directory: ${join(root, 'missing')}`);
    expect(existsSync(out)).toBe(false);
    const bad = await runCliInProcess(['leaderboard', a, '--format', 'xml'], root);
    expect(bad.code).toBe(2);
  });
});
