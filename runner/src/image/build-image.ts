// Builds the agent image: bundles the image JS, assembles a small build context
// (Dockerfile, Node binary, dist/image, rootfs, setup.sh) and builds it through the engine.
// Base image: --base-image / GAIA2_BASE_IMAGE, else a local Debian bookworm, else a pull,
// else the offline debootstrap base (scripts/build-base-image.sh) when no registry answers.
import { execFile } from 'node:child_process';
import { cp, mkdir, rm, copyFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ContainerEngine } from '../engine/index.js';
import { ensureNodeBinary } from './node-runtime.js';

const run = promisify(execFile);

export const DEFAULT_IMAGE = 'localhost/gaia2-agent:latest';
export const OFFLINE_BASE = 'localhost/gaia2-base:bookworm';
const PUBLIC_BASE = 'docker.io/library/debian:bookworm-slim';

export interface BuildImageOptions {
  projectRoot: string;
  tag?: string;
  baseImage?: string;
  log?: (line: string) => void;
  /** Skip the JS bundle step (already built). */
  skipBundle?: boolean;
}

export async function chooseBaseImage(engine: ContainerEngine, projectRoot: string, log: (s: string) => void): Promise<string> {
  for (const ref of [OFFLINE_BASE, PUBLIC_BASE]) if (await engine.imageExists(ref)) return ref;
  log(`trying to pull ${PUBLIC_BASE}`);
  if (await engine.pull(PUBLIC_BASE, 15_000)) return PUBLIC_BASE;
  log('no registry answered: building an offline Debian base with debootstrap');
  await run('bash', [join(projectRoot, 'scripts/build-base-image.sh'), OFFLINE_BASE], { maxBuffer: 16 << 20 });
  return OFFLINE_BASE;
}

export async function buildImage(engine: ContainerEngine, opts: BuildImageOptions): Promise<string> {
  const log = opts.log ?? (() => {});
  const root = opts.projectRoot;
  const tag = opts.tag ?? DEFAULT_IMAGE;
  if (!opts.skipBundle) {
    log('bundling JS (scripts/build.mjs)');
    await run(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, maxBuffer: 16 << 20 });
  }
  if (!existsSync(join(root, 'dist/image'))) throw new Error('dist/image is missing after the bundle step');
  const base = opts.baseImage ?? process.env.GAIA2_BASE_IMAGE ?? (await chooseBaseImage(engine, root, log));
  const node = await ensureNodeBinary(join(root, '.cache'), log);

  const ctx = join(root, 'build', 'image-context');
  await rm(ctx, { recursive: true, force: true });
  await mkdir(join(ctx, 'node/bin'), { recursive: true });
  await copyFile(join(root, 'Dockerfile'), join(ctx, 'Dockerfile'));
  await copyFile(node, join(ctx, 'node/bin/node'));
  await cp(join(root, 'dist/image'), join(ctx, 'dist/image'), { recursive: true });
  await cp(join(root, 'agent-image/rootfs'), join(ctx, 'rootfs'), { recursive: true });
  await copyFile(join(root, 'agent-image/setup.sh'), join(ctx, 'setup.sh'));

  log(`building ${tag} on ${base}`);
  await engine.build({ contextDir: ctx, tag, buildArgs: { BASE_IMAGE: base }, onProgress: (l) => log(l) });
  return tag;
}
