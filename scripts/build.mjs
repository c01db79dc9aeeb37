// Bundles the project with esbuild:
//   runner      runner/src/cli/main.ts  → dist/runner/cli.mjs + lazily loaded chunks in
//               dist/runner/lib/ (node_modules stay external)
//   image       agent-image/src/main/*.ts → dist/image/<name>.mjs (the world daemon:
//               gaia2d.cjs, for its startup snapshot), and the daemon's lazily loaded LLM
//               users: the judge's provider layer → dist/image/judge-llm.cjs and the
//               Agent2Agent app agents → dist/image/app-agent.cjs (self-contained: no
//               node_modules in the image; scripts/image-bundles.mjs)
//   viewer      runner/src/viewer/browser/ → one browser script, inlined into the runner as
//               the text of the pages' _viewer.js (runner/src/viewer/pages/client-bundle.mjs)
import { build } from 'esbuild';
import { existsSync, rmSync, renameSync, mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildImageBundle, imageEntries } from './image-bundles.mjs';
import { bundleViewerClient, viewerClientScriptPlugin } from '../runner/src/viewer/pages/client-bundle.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// dockerode and docker-modem load gRPC and protobuf (BuildKit sessions) and ssh2 (ssh://
// engines) when imported: ~15 MB of memory that a runner on a local socket never needs. Those
// two packages are bundled with those two modules loaded on first call instead. The image's
// code the runner uses (the workspace package @gaia2/contract, TypeScript source) is bundled
// like the runner's own; every other package stays external.
const BUNDLED_PACKAGES = /^(dockerode|docker-modem|@gaia2\/contract)(\/|$)/;
const LAZY_MODULES = { dockerode: ['./session'], 'docker-modem': ['./ssh'] };
const lazyEngineExtras = {
  name: 'lazy-engine-extras',
  setup(b) {
    // (the stand-ins below require the real modules from node_modules at run time)
    b.onResolve({ filter: /^[^./]/ }, (a) =>
      a.path.startsWith('node:') || (BUNDLED_PACKAGES.test(a.path) && a.namespace !== 'lazy-module') ? undefined : { path: a.path, external: true },
    );
    b.onResolve({ filter: /^\.\/(session|ssh)$/ }, (a) => {
      const pkg = /node_modules\/(dockerode|docker-modem)\/lib\//.exec(a.importer)?.[1];
      if (!pkg || !LAZY_MODULES[pkg].includes(a.path)) return undefined;
      return { path: `${pkg}/lib/${a.path.slice(2)}.js`, namespace: 'lazy-module' };
    });
    // Both modules export one function: the stand-in loads the real one on its first call.
    b.onLoad({ filter: /.*/, namespace: 'lazy-module' }, (a) => ({
      contents: `let real; module.exports = function () { real ??= require(${JSON.stringify(a.path)}); return real.apply(this, arguments); };`,
      loader: 'js',
    }));
  },
};

// The viewer's browser code (runner/src/viewer/browser/) is bundled once and goes into the
// runner as the text of viewer/pages/client-script.ts, which otherwise bundles it at start.
const viewerClient = await bundleViewerClient();
const viewerClientScript = viewerClientScriptPlugin(viewerClient);

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
  plugins: [lazyEngineExtras, viewerClientScript],
  // CommonJS packages bundled into ESM need require.
  banner: { js: "import { createRequire as __gaia2CreateRequire } from 'node:module'; const require = __gaia2CreateRequire(import.meta.url);" },
});

const images = imageEntries(root);
for (const [name, file] of images) await buildImageBundle(name, file, join(out, 'image'));
const old = `${final}.old-${process.pid}`;
if (existsSync(final)) renameSync(final, old);
renameSync(out, final);
rmSync(old, { recursive: true, force: true });
console.log(`build: runner + ${images.length} image bundles`);
