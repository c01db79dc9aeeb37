// The leaderboard as Markdown: the same tables as the page, rows linked to their viewers.
import type { Leaderboard } from './build.js';
import { methodsText, sectionHeading } from './text.js';
import { sectionNotes, sectionTables, type Cell } from './table.js';

/** Text that renders as itself: Markdown's markup characters and table pipes escaped. */
export function mdText(s: string): string {
  return s.replace(/\s+/g, ' ').replace(/[\\|[\]<>*_`#]/g, '\\$&');
}

function mdCell(c: Cell): string {
  const text = c.href ? `[${mdText(c.text)}](${c.href.replace(/[()\s]/g, encodeURIComponent)})` : mdText(c.text);
  if (!c.detail) return text;
  return c.inline ? `${text} ${mdText(c.detail)}` : `${text} (${mdText(c.detail)})`;
}

const line = (cells: string[]) => `| ${cells.join(' | ')} |`;

export function renderLeaderboardMarkdown(lb: Leaderboard): string {
  const out = [`# ${mdText(lb.title)}`, ''];
  for (const s of lb.sections) {
    out.push(`## ${mdText(sectionHeading(s))}`, '', ...sectionNotes(s).map((n) => `${mdText(n)}  `), '');
    for (const t of sectionTables(s)) {
      out.push(`### ${mdText(t.title)}`, '', line(t.head.map(mdText)), line(t.head.map((_, i) => (i === 0 || t.rows[0]?.[i]?.num ? '---:' : '---'))));
      out.push(...t.rows.map((r) => line(r.map(mdCell))), '');
    }
  }
  out.push(...methodsText(lb).map(mdText).flatMap((p) => [p, '']));
  return out.join('\n');
}
