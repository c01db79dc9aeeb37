// Bundles the viewer's browser code (runner/src/viewer/browser/main.ts) into the one script the
// pages load (_viewer.js): a self-contained IIFE, no module loader, so the pages work from
// file://. Plain JavaScript so that scripts/build.mjs (node, no TypeScript) and a run from
// source (pages/client-script.ts) bundle it with the same options.
import { fileURLToPath } from 'node:url';

export const VIEWER_CLIENT_ENTRY = fileURLToPath(new URL('../browser/main.ts', import.meta.url));

/** The bundle's text. esbuild is a dev dependency: the published build carries the result. */
export async function bundleViewerClient() {
  const { build } = await import('esbuild');
  const out = await build({
    entryPoints: [VIEWER_CLIENT_ENTRY],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2019',
    charset: 'utf8',
    legalComments: 'none',
    logLevel: 'silent',
  });
  return out.outputFiles[0].text;
}

/**
 * An esbuild plugin that replaces pages/client-script.ts with the bundle's text, so a bundle of
 * the viewer (the runner's dist/, a benchmark's) carries the browser code and needs no bundler,
 * nor the sources' location, at run time.
 */
export function viewerClientScriptPlugin(clientText) {
  return {
    name: 'viewer-client-script',
    setup(b) {
      b.onLoad({ filter: /[\\/]viewer[\\/]pages[\\/]client-script\.ts$/ }, () => ({ contents: `export const CLIENT_SCRIPT = ${JSON.stringify(clientText)};`, loader: 'js' }));
    },
  };
}
