// The Markdown and the page render the same cells; hostile names (a run folder, a model, the
// title) stay text in both, and the page's only style is allowed by its hash.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLeaderboard, LEADERBOARD_CSP, mdText, renderLeaderboardHtml, renderLeaderboardMarkdown, type Leaderboard } from '../../../runner/src/leaderboard/index.js';
import { datasetRun, writeDatasets } from './runs.js';

const CANARY = '</td><script>window.__xss=1</script>|[x](javascript:alert(1))';
let lb: Leaderboard;
let root: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'leaderboard-render-'));
  const d = writeDatasets(root);
  const dir = await datasetRun({ dataset: d.part, out: join(root, 'run <b>|1'), model: CANARY, provider: 'openai', decide: (id) => (id === 'b' ? 'fail' : 'pass') });
  lb = buildLeaderboard([dir], { outDir: join(root, 'site'), title: `Title ${CANARY}` });
}, 60_000);

afterAll(() => {
  for (const d of [root]) rmSync(d, { recursive: true, force: true });
});

describe('leaderboard pages', () => {
  it('Markdown: one line per row in each table, names escaped so they stay text', () => {
    const md = renderLeaderboardMarkdown(lb);
    const rows = md.split('\n').filter((l) => l.startsWith('| 1 |'));
    expect(rows).toHaveLength(2);
    // every row has as many cells as its header (escaped pipes do not split a cell)
    const cells = (l: string) => l.split(/(?<!\\)\|/).length;
    const heads = md.split('\n').filter((l) => l.startsWith('| \\# |'));
    expect(rows.map(cells)).toEqual(heads.map(cells));
    expect(md).toContain(`| ${mdText(CANARY)} (openai) |`);
    expect(md).not.toContain('<script>');
    expect(md).toContain('| run \\<b\\>\\|1 |');
    expect(md.split('\n')[0]).toBe(`# ${mdText(`Title ${CANARY}`)}`);
    // 2 of 3 pass: the report's rate text, ± SE [95% CI]
    expect(md).toContain('66.7% ± 33.3% \\[1.3%, 100.0%\\]');
  });

  it('HTML: no script, every name escaped, the inline style allowed by its hash', () => {
    const html = renderLeaderboardHtml(lb);
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('&#60;/td&#62;&#60;script&#62;window.__xss=1&#60;/script&#62;');
    expect(html).toContain('<title>Title &#60;/td&#62;');
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    expect(LEADERBOARD_CSP).toContain(`'sha256-${createHash('sha256').update(style).digest('base64')}'`);
    expect(LEADERBOARD_CSP).toContain("default-src 'none'");
    // the viewer's stylesheet: the same look as its pages
    expect(style).toContain('table.grid');
    expect(html.match(/<table class="grid"/g)).toHaveLength(2);
  });
});
