// The page shell: one inline stylesheet and one inline script, both allowed by hash in a
// strict content-security policy; page data travels as inert JSON and is rendered through
// text nodes only. No network resources.
import { createHash } from 'node:crypto';
import { CLIENT_CORE_JS } from './client/core.js';
import { CLIENT_EXPERIMENT_JS } from './client/experiment.js';
import { CLIENT_RUN_JS } from './client/run.js';
import { CLIENT_TRACE_JS } from './client/trace.js';
import { CLIENT_COMPARE_JS } from './client/compare.js';
import { VIEWER_CSS } from './style.js';

const SCRIPT = [CLIENT_CORE_JS, CLIENT_RUN_JS, CLIENT_EXPERIMENT_JS, CLIENT_TRACE_JS, CLIENT_COMPARE_JS, 'main();'].join('\n');

/** Changes whenever the page code does: part of every page's incremental signature. */
export const PAGE_CODE_HASH = createHash('sha256').update(SCRIPT).update(VIEWER_CSS).digest('hex').slice(0, 16);

const sha256 = (s: string): string => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;

export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `script-src ${sha256(SCRIPT)}`,
  `style-src ${sha256(VIEWER_CSS)}`,
  'img-src data:',
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** JSON that cannot close its <script> element or break out as HTML/JS line terminators. */
export function jsonForScript(data: unknown): string {
  return JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export function renderPage(title: string, data: unknown): string {
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(CONTENT_SECURITY_POLICY)}">`,
    '<meta name="referrer" content="no-referrer">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${VIEWER_CSS}</style>`,
    '</head><body>',
    '<noscript>This viewer renders with JavaScript; the raw artifacts sit next to this file.</noscript>',
    '<div id="app"></div>',
    `<script type="application/json" id="page-data">${jsonForScript(data)}</script>`,
    `<script>${SCRIPT}</script>`,
    '</body></html>',
    '',
  ].join('\n');
}
