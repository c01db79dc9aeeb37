// Bundles the project with esbuild:
//   runner      runner/src/cli/main.ts  → dist/runner/cli.mjs + lazily loaded chunks in
//               dist/runner/lib/ (node_modules stay external)
//   image       agent-image/src/main/*.ts → dist/image/<name>.mjs (the world daemon:
//               gaia2d.cjs, for its startup snapshot), and the judge's provider layer →
//               dist/image/judge-llm.cjs (self-contained: no node_modules in the image;
//               scripts/image-bundles.mjs)
import { build } from 'esbuild';
import { existsSync, rmSync, renameSync, mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildImageBundle, imageEntries } from './image-bundles.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const common = { bundle: true, platform: 'node', format: 'esm', sourcemap: false, logLevel: 'warning', legalComments: 'none' };

// Build into a private directory and swap it in, so a CLI started meanwhile never sees a
// half-written bundle.
const final = join(root, 'dist');
const out = join(root, `.dist-build-${process.pid}`);
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

await build({
  ...common,
  entryPoints: {
    cli: join(root, 'runner/src/cli/main.ts'),
    // the viewer's page threads (runner/src/viewer/build/page-pool.ts looks for it here)
    'viewer-worker': join(root, 'runner/src/viewer/build/page-worker.ts'),
  },
  outdir: join(out, 'runner'),
  outExtension: { '.js': '.mjs' },
  // Dynamic imports stay dynamic (e.g. the judge's provider layer: the AI SDK is ~20 MB of
  // memory that a run without an LLM judge never needs).
  splitting: true,
  chunkNames: 'lib/[name]-[hash]',
  target: 'node20',
  packages: 'external',
});

const images = imageEntries(root);
for (const [name, file] of images) await buildImageBundle(name, file, join(out, 'image'));
const old = `${final}.old-${process.pid}`;
if (existsSync(final)) renameSync(final, old);
renameSync(out, final);
rmSync(old, { recursive: true, force: true });
console.log(`build: runner + ${images.length} image bundles`);
