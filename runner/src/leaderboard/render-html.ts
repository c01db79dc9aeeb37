// The leaderboard as one static page: no script, no network resource, every text escaped.
// It looks like the viewer's pages (their stylesheet, inlined and allowed by its hash, so the
// page stands alone when published); rows link to each run's viewer.
import { createHash } from 'node:crypto';
import { documentHead, escapeHtml as e } from '../viewer/pages/html.js';
import { VIEWER_CSS } from '../viewer/pages/style.js';
import type { Leaderboard, LeaderboardSection } from './build.js';
import { methodsText, sectionHeading } from './text.js';
import { sectionNotes, sectionTables, type Cell, type Table } from './table.js';

const LEADERBOARD_CSS = `${VIEWER_CSS}
table.grid td .d{color:var(--muted);font-size:12px;white-space:nowrap}table.grid td.num{white-space:nowrap}table.grid th.num{text-align:right}
.notes p{margin:4px 0}.notes p.warn{color:var(--error)}section.setting{margin-bottom:28px}.methods{color:var(--muted);max-width:70em}
`;

const STYLE_HASH = createHash('sha256').update(LEADERBOARD_CSS).digest('base64');

// Only the inline stylesheet may apply: no scripts, no fetches, no forms.
export const LEADERBOARD_CSP = ["default-src 'none'", `style-src 'sha256-${STYLE_HASH}'`, "img-src 'none'", "base-uri 'none'", "form-action 'none'"].join('; ');

function cell(c: Cell): string {
  const text = c.href ? `<a href="${e(c.href)}">${e(c.text)}</a>` : e(c.text);
  const detail = c.detail ? `<div class="d">${e(c.detail)}</div>` : '';
  return `<td${c.num ? ' class="num"' : ''}>${text}${detail}</td>`;
}

function table(t: Table, setting: string): string {
  return [
    `<h3>${e(t.title)}</h3>`,
    `<table class="grid" data-setting="${e(setting)}">`,
    `<thead><tr>${t.head.map((h, i) => `<th scope="col"${t.rows[0]?.[i]?.num ? ' class="num"' : ''}>${e(h)}</th>`).join('')}</tr></thead>`,
    `<tbody>${t.rows.map((r) => `<tr>${r.map(cell).join('')}</tr>`).join('\n')}</tbody>`,
    '</table>',
  ].join('\n');
}

function section(s: LeaderboardSection): string {
  const notes = sectionNotes(s).map((n, i) => `<p${i === 0 && !s.scenarios.same && !s.restricted ? ' class="warn"' : ''}>${e(n)}</p>`);
  return [
    `<section class="setting" id="setting-${e(s.setting)}">`,
    `<h2>${e(sectionHeading(s))}</h2>`,
    `<div class="notes">${notes.join('')}</div>`,
    ...sectionTables(s).map((t) => table(t, s.setting)),
    '</section>',
  ].join('\n');
}

export function renderLeaderboardHtml(lb: Leaderboard): string {
  return [
    ...documentHead(lb.title, LEADERBOARD_CSP, [`<style>${LEADERBOARD_CSS}</style>`]),
    `<header class="top"><span class="crumbs">${e(lb.title)}</span><span class="spacer"></span><span class="muted">${e(lb.generated_at)}</span></header>`,
    '<main>',
    `<h1>${e(lb.title)}</h1>`,
    `<div class="sub">${e(`${lb.sections.reduce((n, s) => n + s.rows.length, 0)} run(s) in ${lb.sections.length} setting(s)${lb.common_scenarios_only ? '; restricted to common scenarios' : ''}`)}</div>`,
    ...lb.sections.map(section),
    `<div class="methods">${methodsText(lb).map((p) => `<p>${e(p)}</p>`).join('')}</div>`,
    '</main>',
    '</body></html>',
    '',
  ].join('\n');
}
