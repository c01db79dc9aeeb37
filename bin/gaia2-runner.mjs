#!/usr/bin/env node
// Entry point: runs the bundled CLI (dist/, built by `npm install` / `npm run build`) unless a
// source file is newer than the bundle, in which case the TypeScript sources run through tsx,
// so a development checkout never runs stale code.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bundled = join(root, 'dist', 'runner', 'cli.mjs');

function newestMtime(dir) {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

function bundleIsFresh() {
  if (process.env.GAIA2_RUNNER_FROM_SOURCE || !existsSync(bundled)) return false;
  const built = statSync(bundled).mtimeMs;
  return ['runner/src', 'agent-image/src'].every((d) => !existsSync(join(root, d)) || newestMtime(join(root, d)) <= built);
}

if (bundleIsFresh()) {
  await import(pathToFileURL(bundled).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(join(root, 'runner', 'src', 'cli', 'main.ts')).href);
}
