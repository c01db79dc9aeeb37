// Bundles the project with esbuild:
//   runner      runner/src/cli/main.ts  → dist/runner/cli.mjs + lazily loaded chunks in
//               dist/runner/lib/ (node_modules stay external)
//   image       agent-image/src/main/*.ts → dist/image/<name>.mjs, and the judge's provider
//               layer → dist/image/judge-llm.mjs (self-contained: no node_modules in the image)
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

const mainDir = join(root, 'agent-image/src/main');
const entries = existsSync(mainDir) ? readdirSync(mainDir).filter((f) => f.endsWith('.ts')) : [];
// One self-contained bundle per entry: shared chunks would carry the union of what every
// entry uses (the agents pull all of zod and the AI SDK) into the daemon's boot. The judge's
// provider layer (the AI SDK, only needed with an LLM judge) is a bundle of its own that the
// daemon imports on first use.
const lazyJudgeLlm = {
  name: 'lazy-judge-llm',
  setup(b) {
    b.onResolve({ filter: /^\.\/llm-provider\.js$/ }, (a) =>
      a.kind === 'dynamic-import' ? { path: './judge-llm.mjs', external: true } : undefined,
    );
  },
};
// `import http from 'node:http'` in ESM makes Node build the module's ESM facade, which reads
// every export, including the lazy WebSocket getters that load all of undici (~15 ms of the
// daemon's boot). A CommonJS require of the same module does not: route those through it.
const builtinsByRequire = {
  name: 'builtins-by-require',
  setup(b) {
    b.onResolve({ filter: /^(node:)?https?$/ }, (a) =>
      a.kind === 'require-call' ? { path: a.path, external: true } : { path: a.path, namespace: 'builtin-cjs' },
    );
    b.onLoad({ filter: /.*/, namespace: 'builtin-cjs' }, (a) => ({ contents: `module.exports = require(${JSON.stringify(a.path)});`, loader: 'js' }));
  },
};
const imageEntries = [
  ...entries.map((f) => [basename(f, '.ts'), join(mainDir, f)]),
  ['judge-llm', join(root, 'agent-image/src/judge/llm-provider.ts')],
];
for (const [name, file] of imageEntries) {
  await build({
    ...common,
    entryPoints: { [name]: file },
    outdir: join(out, 'image'),
    outExtension: { '.js': '.mjs' },
    plugins: [lazyJudgeLlm, builtinsByRequire],
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
