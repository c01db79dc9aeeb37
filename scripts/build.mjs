// Bundles the project with esbuild:
//   runner      runner/src/cli/main.ts  → dist/runner/cli.mjs   (node_modules stay external)
//   image       agent-image/src/main/*.ts → dist/image/<name>.mjs (self-contained: the image
//               has no node_modules)
import { build } from 'esbuild';
import { readdirSync, existsSync, rmSync, renameSync, mkdirSync } from 'node:fs';
import { join, dirname, basename } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// CommonJS dependencies bundled into ESM need require/__dirname.
const cjsShim =
  "import { createRequire as __gaia2CreateRequire } from 'node:module';" +
  "import { fileURLToPath as __gaia2FileUrl } from 'node:url';" +
  "const require = __gaia2CreateRequire(import.meta.url);" +
  "const __filename = __gaia2FileUrl(import.meta.url);" +
  "const __dirname = __filename.slice(0, __filename.lastIndexOf('/'));";

const common = { bundle: true, platform: 'node', format: 'esm', sourcemap: false, logLevel: 'warning', legalComments: 'none' };

// Build into a private directory and swap it in, so a CLI started meanwhile never sees a
// half-written bundle.
const final = join(root, 'dist');
const out = join(root, `.dist-build-${process.pid}`);
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

await build({
  ...common,
  entryPoints: [join(root, 'runner/src/cli/main.ts')],
  outfile: join(out, 'runner/cli.mjs'),
  target: 'node20',
  packages: 'external',
});

const mainDir = join(root, 'agent-image/src/main');
const entries = existsSync(mainDir) ? readdirSync(mainDir).filter((f) => f.endsWith('.ts')) : [];
if (entries.length) {
  await build({
    ...common,
    entryPoints: Object.fromEntries(entries.map((f) => [basename(f, '.ts'), join(mainDir, f)])),
    outdir: join(out, 'image'),
    outExtension: { '.js': '.mjs' },
    target: 'node22',
    banner: { js: cjsShim },
    minifyWhitespace: true,
  });
}
const old = `${final}.old-${process.pid}`;
if (existsSync(final)) renameSync(final, old);
renameSync(out, final);
rmSync(old, { recursive: true, force: true });
console.log(`build: runner + ${entries.length} image entr${entries.length === 1 ? 'y' : 'ies'}`);
