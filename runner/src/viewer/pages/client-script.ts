// The text of _viewer.js: the viewer's browser code (viewer/browser/), bundled. The build
// (scripts/build.mjs) replaces this module with the bundle it made, so the published runner
// needs no bundler; run from source (tests, tsx), it is bundled here, once per process.
import { bundleViewerClient } from './client-bundle.mjs';

export const CLIENT_SCRIPT: string = await bundleViewerClient();
