// The base image for a machine without a registry: a debootstrap root filesystem (built once
// per host, cached under .cache/) imported into the engine through its API, so the same tar
// works for podman, Docker Engine and a remote engine, which never sees the host's files.
import { execFile } from 'node:child_process';
import { createReadStream, existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ImageStore } from '../engine/index.js';

const run = promisify(execFile);

export const OFFLINE_BASE = 'localhost/gaia2-base:bookworm';
/** Bumped when the script's package set changes, so a cached tar of the old set is not reused. */
const ROOTFS_FILE = 'bookworm-minbase-tools-v2.tar';

/** Path of the cached root filesystem tar; runs scripts/build-base-rootfs.sh when it is missing. */
export async function ensureBaseRootfs(projectRoot: string, log: (s: string) => void): Promise<string> {
  const tar = join(projectRoot, '.cache', 'offline-base', ROOTFS_FILE);
  if (existsSync(tar)) return tar;
  log(`building a Debian root filesystem with debootstrap (once; cached as ${tar})`);
  try {
    await run('bash', [join(projectRoot, 'scripts/build-base-rootfs.sh'), tar], { maxBuffer: 16 << 20 });
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    throw new Error(`building the offline base failed: ${(err.stderr || err.message).trim()}`);
  }
  return tar;
}

/** Imports the root filesystem tar as OFFLINE_BASE through the engine's API. */
export async function importOfflineBase(images: ImageStore, rootfsTar: string, log: (s: string) => void): Promise<string> {
  log(`importing ${rootfsTar} as ${OFFLINE_BASE} through the engine`);
  await images.importImage(createReadStream(rootfsTar), OFFLINE_BASE, { changes: ['CMD ["/bin/bash"]'] });
  return OFFLINE_BASE;
}
