// Builds the agent image: bundles the image JS, assembles a small build context
// (Dockerfile, Node binary, dist/image, rootfs, setup.sh, native) and builds it through the engine.
// The context's content hash is stored as an image label, so ensureImage() rebuilds only
// when something that goes into the image changed.
// Base image: --base-image / GAIA2_BASE_IMAGE, else a local Debian bookworm, else a pull,
// else the offline base (offline-base.ts) when no registry answers.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdir, rm, copyFile, readdir, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ImageStore } from '../engine/index.js';
import { ensureNodeBinary } from './node-runtime.js';
import { ensureBaseRootfs, importOfflineBase, OFFLINE_BASE } from './offline-base.js';
import { OUR_IMAGE_FEATURES } from '@gaia2/contract/features';

const run = promisify(execFile);

export { DEFAULT_IMAGE } from '../plan/plan.js';
import { DEFAULT_IMAGE } from '../plan/plan.js';
export const PUBLIC_BASE = 'docker.io/library/debian:bookworm-slim';
/** Label holding the hash of the build context the image was built from. */
export const HASH_LABEL = 'gaia2.context-hash';

export interface BuildImageOptions {
  projectRoot: string;
  tag?: string;
  baseImage?: string;
  log?: (line: string) => void;
  /** Skip the JS bundle step (already built). */
  skipBundle?: boolean;
}

/**
 * The base to build on: one the engine already holds, else a pull, else the offline base (a
 * debootstrap root filesystem imported through the engine). `rootfs` makes the tar (cached).
 */
export async function chooseBaseImage(
  images: ImageStore,
  projectRoot: string,
  log: (s: string) => void,
  rootfs: () => Promise<string> = () => ensureBaseRootfs(projectRoot, log),
): Promise<string> {
  for (const ref of [OFFLINE_BASE, PUBLIC_BASE]) if (await images.exists(ref)) return ref;
  log(`trying to pull ${PUBLIC_BASE}`);
  if (await images.pull(PUBLIC_BASE, 15_000, log)) return PUBLIC_BASE;
  log('no registry answered: using the offline Debian base');
  return importOfflineBase(images, await rootfs(), log);
}

/** Bundles and assembles the build context; returns its directory and content hash. */
async function prepareContext(opts: BuildImageOptions, log: (s: string) => void): Promise<{ ctx: string; hash: string }> {
  const root = opts.projectRoot;
  if (!opts.skipBundle) {
    log('bundling JS (scripts/build.mjs)');
    await run(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, maxBuffer: 16 << 20 });
  }
  if (!existsSync(join(root, 'dist/image'))) throw new Error('dist/image is missing after the bundle step');
  const node = await ensureNodeBinary(join(root, '.cache'), log);
  const ctx = join(root, 'build', 'image-context');
  await rm(ctx, { recursive: true, force: true });
  await mkdir(join(ctx, 'node/bin'), { recursive: true });
  await copyFile(join(root, 'Dockerfile'), join(ctx, 'Dockerfile'));
  await copyFile(node, join(ctx, 'node/bin/node'));
  await cp(join(root, 'dist/image'), join(ctx, 'dist/image'), { recursive: true });
  await cp(join(root, 'agent-image/rootfs'), join(ctx, 'rootfs'), { recursive: true });
  await copyFile(join(root, 'agent-image/setup.sh'), join(ctx, 'setup.sh'));
  // C sources of the agent's clock readers, compiled in the Dockerfile's builder stage.
  await cp(join(root, 'agent-image/native'), join(ctx, 'native'), { recursive: true });
  // The feature label is a build arg, not a file: it goes into the hash too.
  return { ctx, hash: await hashTree(ctx, OUR_IMAGE_FEATURES) };
}

async function hashTree(dir: string, extra: string): Promise<string> {
  const h = createHash('sha256');
  h.update(`${extra}\0`);
  const walk = async (d: string, rel: string): Promise<void> => {
    const entries = (await readdir(d, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
    for (const e of entries) {
      const p = join(d, e.name);
      if (e.isDirectory()) await walk(p, `${rel}${e.name}/`);
      else {
        h.update(`${rel}${e.name}\0`);
        h.update(await readFile(p));
      }
    }
  };
  await walk(dir, '');
  return h.digest('hex').slice(0, 16);
}

/** Builds the image unconditionally. */
export async function buildImage(images: ImageStore, opts: BuildImageOptions): Promise<string> {
  const log = opts.log ?? (() => {});
  const { ctx, hash } = await prepareContext(opts, log);
  return buildFromContext(images, opts, ctx, hash, log);
}

/** Builds the image only when it is missing or was built from different content. */
export async function ensureImage(images: ImageStore, opts: BuildImageOptions): Promise<{ tag: string; built: boolean }> {
  const log = opts.log ?? (() => {});
  const tag = opts.tag ?? DEFAULT_IMAGE;
  const { ctx, hash } = await prepareContext(opts, log);
  const labels = await images.labels(tag);
  if (labels && labels[HASH_LABEL] === hash) return { tag, built: false };
  log(labels ? `${tag} is out of date: rebuilding` : `${tag} is missing: building it`);
  await buildFromContext(images, opts, ctx, hash, log);
  return { tag, built: true };
}

async function buildFromContext(
  images: ImageStore,
  opts: BuildImageOptions,
  ctx: string,
  hash: string,
  log: (s: string) => void,
): Promise<string> {
  const tag = opts.tag ?? DEFAULT_IMAGE;
  const base = opts.baseImage ?? process.env.GAIA2_BASE_IMAGE ?? (await chooseBaseImage(images, opts.projectRoot, log));
  log(`building ${tag} on ${base}`);
  await images.build({
    contextDir: ctx,
    tag,
    buildArgs: { BASE_IMAGE: base, CONTEXT_HASH: hash, FEATURES: OUR_IMAGE_FEATURES },
    onProgress: (l) => log(l),
  });
  return tag;
}
