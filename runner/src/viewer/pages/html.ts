// The page shell: the viewer's own stylesheet and script (_viewer.css, _viewer.js: the bundled
// browser code, pages/page-assets.ts), written next to the pages and the only ones a strict
// content-security policy allows; page data travels as inert JSON and is rendered through
// text nodes only. No network resources. The shell only links the assets: their content is
// page-assets.ts's, so pages that do not use the viewer's script (the leaderboard, the
// comparison report) never load it.

// Scripts and styles only from the viewer's own files: no inline code, no network.
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  'img-src data:',
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const SCRIPT_UNSAFE: Record<string, string> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' };

/** JSON that cannot close its <script> element or break out as HTML/JS line terminators. */
export function jsonForScript(data: unknown): string {
  const json = JSON.stringify(data);
  // indexOf is far cheaper than a regex pass; most pages need no replacement at all.
  const clean = ['<', '>', '&', '\u2028', '\u2029'].every((c) => json.indexOf(c) < 0);
  return clean ? json : json.replace(/[<>&\u2028\u2029]/g, (c) => SCRIPT_UNSAFE[c]!);
}

const PAGE_END = '</script>\n</body></html>\n';

/**
 * The start of a standalone page up to its body: charset, viewport, the content-security
 * policy, no referrer, the title, then `head` (stylesheets, scripts). The viewer's pages and the
 * leaderboard's share it.
 */
export function documentHead(title: string, csp: string, head: readonly string[]): string[] {
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">`,
    '<meta name="referrer" content="no-referrer">',
    `<title>${escapeHtml(title)}</title>`,
    ...head,
    '</head><body>',
  ];
}

/** Everything before the page data. */
function pageHead(title: string, assetPrefix: string): string {
  const prefix = escapeHtml(assetPrefix);
  return [
    ...documentHead(title, CONTENT_SECURITY_POLICY, [`<link rel="stylesheet" href="${prefix}_viewer.css">`, `<script src="${prefix}_viewer.js" defer></script>`]),
    '<noscript>This viewer renders with JavaScript; the raw artifacts sit next to this file.</noscript>',
    '<div id="app"></div>',
    '<script type="application/json" id="page-data">',
  ].join('\n');
}

/** `assetPrefix` is the relative path from the page's folder to the folder holding the assets. */
export function renderPage(title: string, data: unknown, assetPrefix = ''): string {
  return pageHead(title, assetPrefix) + jsonForScript(data) + PAGE_END;
}

const PAGE_END_BYTES = Buffer.from(PAGE_END);

/**
 * The same page as UTF-8, for pages that are hashed and written: encoded once, and the
 * (usually ASCII) data apart from the head, whose title may hold non-ASCII characters.
 */
export function renderPageBytes(title: string, data: unknown, assetPrefix = ''): Buffer {
  return Buffer.concat([Buffer.from(pageHead(title, assetPrefix)), Buffer.from(jsonForScript(data)), PAGE_END_BYTES]);
}
