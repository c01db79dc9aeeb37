// Public surface of `gaia2-runner leaderboard`: build the rows, write the three files.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../fsutil/atomic.js';
import { redact } from '../secrets/redact.js';
import type { Leaderboard } from './build.js';
import { renderLeaderboardHtml } from './render-html.js';
import { renderLeaderboardMarkdown } from './render-md.js';

export { buildLeaderboard, headline, DEFAULT_TITLE, type Leaderboard, type LeaderboardRow, type LeaderboardSection, type LeaderboardOptions, type PerScenarioRun } from './build.js';
export { resolveSources, type LeaderboardSource } from './sources.js';
export { renderLeaderboardHtml, LEADERBOARD_CSP } from './render-html.js';
export { renderLeaderboardMarkdown, mdText } from './render-md.js';

export const LEADERBOARD_FILES = { json: 'leaderboard.json', md: 'leaderboard.md', html: 'leaderboard.html' } as const;

/** Writes leaderboard.json, .md and .html into `outDir`; returns the three texts as written. */
export async function saveLeaderboard(outDir: string, lb: Leaderboard): Promise<Record<keyof typeof LEADERBOARD_FILES, string>> {
  mkdirSync(outDir, { recursive: true });
  const texts = {
    json: redact(JSON.stringify(lb, null, 2)) + '\n',
    md: redact(renderLeaderboardMarkdown(lb)),
    html: redact(renderLeaderboardHtml(lb)),
  };
  for (const [k, file] of Object.entries(LEADERBOARD_FILES)) await writeFileAtomic(join(outDir, file), texts[k as keyof typeof texts]);
  return texts;
}
