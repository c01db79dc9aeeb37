#!/usr/bin/env node
// Entry point: runs the bundled CLI when built (npm install runs the build), else the
// TypeScript sources through tsx (development checkouts).
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bundled = join(root, 'dist', 'runner', 'cli.mjs');
if (existsSync(bundled) && !process.env.GAIA2_RUNNER_FROM_SOURCE) {
  await import(pathToFileURL(bundled).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(join(root, 'runner', 'src', 'cli', 'main.ts')).href);
}
