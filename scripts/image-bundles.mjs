// esbuild options for the agent image's bundles (used by scripts/build.mjs and by the tests of
// the daemon's startup snapshot). One self-contained bundle per entry in agent-image/src/main:
// shared chunks would carry the union of what every entry uses (the agents pull all of zod and
// the AI SDK) into the daemon's boot.
//
// The world daemon is CommonJS (gaia2d.cjs): the image turns it into a V8 startup snapshot
// (agent-image/setup.sh), which takes a single CommonJS script. Its module code therefore runs
// in the snapshot builder, not in containers: the banner makes any read of process.env there
// fail the image build (a value read then would be the builder's, frozen into every container).
import { build } from 'esbuild';
import { existsSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';

export const DAEMON_ENTRY = 'gaia2d';

export const SNAPSHOT_ENV_ERROR = 'read at module load: the daemon is a startup snapshot';

const snapshotEnvGuard = {
  banner: {
    js:
      '"use strict";var __gaia2SnapshotEnv=require("node:v8").startupSnapshot.isBuildingSnapshot()?process.env:null;' +
      'if(__gaia2SnapshotEnv)process.env=new Proxy({},{get(_,k){throw new Error("process.env."+String(k)+" ' +
      `${SNAPSHOT_ENV_ERROR}, read it when the process starts")}});`,
  },
  footer: { js: 'if(__gaia2SnapshotEnv)process.env=__gaia2SnapshotEnv;' },
};

// The daemon's LLM users — the judge's provider layer (only needed with an LLM judge) and the
// Agent2Agent app agents (only with GAIA2_A2A) — pull in the AI SDK, whose module code reads
// the environment. Each is a CommonJS bundle of its own (judge-llm.cjs, app-agent.cjs),
// required on first use next to the daemon's file: a function restored from a startup
// snapshot cannot use import().
// The one table of them: bundle name, source file, and the specifier the daemon imports it by.
export const LAZY_DAEMON_BUNDLES = [
  { name: 'judge-llm', file: 'agent-image/src/judge/llm-provider.ts', specifier: './llm-provider.js' },
  { name: 'app-agent', file: 'agent-image/src/a2a/app-agent.ts', specifier: './app-agent.js' },
];
const lazyBySpecifier = new Map(LAZY_DAEMON_BUNDLES.map((l) => [l.specifier, l.name]));
const lazyDaemonLlm = {
  name: 'lazy-daemon-llm',
  setup(b) {
    b.onResolve({ filter: /^\.\/[\w-]+\.js$/ }, (a) =>
      a.kind === 'dynamic-import' && lazyBySpecifier.has(a.path) ? { path: lazyBySpecifier.get(a.path), namespace: 'lazy-daemon-llm' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-daemon-llm' }, (a) => ({
      contents: `module.exports = require("node:module").createRequire(__filename)("./${a.path}.cjs");`,
      loader: 'js',
    }));
  },
};

// `import http from 'node:http'` in ESM makes Node build the module's ESM facade, which reads
// every export, including the lazy WebSocket getters that load all of undici (~15 ms of a
// boot). A CommonJS require of the same module does not: route those through it.
const builtinsByRequire = {
  name: 'builtins-by-require',
  setup(b) {
    b.onResolve({ filter: /^(node:)?https?$/ }, (a) =>
      a.kind === 'require-call' ? { path: a.path, external: true } : { path: a.path, namespace: 'builtin-cjs' },
    );
    b.onLoad({ filter: /.*/, namespace: 'builtin-cjs' }, (a) => ({ contents: `module.exports = require(${JSON.stringify(a.path)});`, loader: 'js' }));
  },
};

// CommonJS dependencies bundled into ESM need require/__dirname.
const cjsShim =
  "import { createRequire as __gaia2CreateRequire } from 'node:module';" +
  "import { fileURLToPath as __gaia2FileUrl } from 'node:url';" +
  'const require = __gaia2CreateRequire(import.meta.url);' +
  'const __filename = __gaia2FileUrl(import.meta.url);' +
  "const __dirname = __filename.slice(0, __filename.lastIndexOf('/'));";

// The model gateway's in-cluster program (runner/src/gateway/cluster/pod-main.ts): the host's
// own gateway, shipped in the image so that the kubernetes backend can run it as a Deployment
// from the run's image, with no registry of its own (docs/gateway.md "Kubernetes"). The image's
// source never imports it; only this bundle carries it.
export const GATEWAY_BUNDLE = { name: 'model-gateway', file: 'runner/src/gateway/cluster/pod-main.ts' };

/** [bundle name, entry file] for every image bundle. */
export function imageEntries(root) {
  const mainDir = join(root, 'agent-image/src/main');
  const mains = existsSync(mainDir) ? readdirSync(mainDir).filter((f) => f.endsWith('.ts')) : [];
  return [
    ...mains.map((f) => [basename(f, '.ts'), join(mainDir, f)]),
    ...LAZY_DAEMON_BUNDLES.map((l) => [l.name, join(root, l.file)]),
    [GATEWAY_BUNDLE.name, join(root, GATEWAY_BUNDLE.file)],
  ];
}

/** Builds one image bundle into outdir (<name>.cjs for the daemon and judge-llm, else .mjs). */
export async function buildImageBundle(name, file, outdir, extra = {}) {
  const cjs = name === DAEMON_ENTRY || LAZY_DAEMON_BUNDLES.some((l) => l.name === name);
  await build({
    bundle: true,
    platform: 'node',
    sourcemap: false,
    logLevel: 'warning',
    legalComments: 'none',
    entryPoints: { [name]: file },
    outdir,
    target: 'node22',
    minifyWhitespace: true,
    ...(cjs
      ? { format: 'cjs', outExtension: { '.js': '.cjs' }, plugins: [lazyDaemonLlm], ...(name === DAEMON_ENTRY ? snapshotEnvGuard : {}) }
      : { format: 'esm', outExtension: { '.js': '.mjs' }, plugins: [builtinsByRequire], banner: { js: cjsShim } }),
    ...extra,
  });
}
