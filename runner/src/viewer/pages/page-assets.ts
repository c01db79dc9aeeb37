// The files every viewer page links (_viewer.js: the bundled browser code; _viewer.css) and the
// hash of the page code. Apart from html.ts, whose page shell the leaderboard and the comparison
// report share: run from source, pages/client-script.ts bundles the browser code with esbuild
// when it is imported, which only the viewer's own pages need.
import { createHash } from 'node:crypto';
import { CLIENT_SCRIPT } from './client-script.js';
import { VIEWER_CSS } from './style.js';

/** Shared assets written once per run dir (and pass@N root); every page links them. */
export const ASSET_FILES: ReadonlyArray<readonly [string, string]> = [
  ['_viewer.js', CLIENT_SCRIPT],
  ['_viewer.css', VIEWER_CSS],
];

/** Changes whenever the page code does: part of every page's incremental signature. */
export const PAGE_CODE_HASH = createHash('sha256').update(CLIENT_SCRIPT).update(VIEWER_CSS).digest('hex').slice(0, 16);
