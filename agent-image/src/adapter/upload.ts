// POST /files: the runner's way in when it has no archive API (a cluster backend reaches the
// adapter through the API server's pod proxy and has no exec streams). Files are written in
// the request's order; each one lands under a temporary name and is renamed into place, so
// the scenario-ready marker (sent last) is never seen before the scenario is complete.
import { chmod, mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, posix } from 'node:path';
import { UPLOAD_ROOT, type UploadRequest } from '../contract/routes.js';

export class UploadError extends Error {}

/** Checks the request's shape and paths before anything is written. */
export function parseUpload(raw: Buffer, root = UPLOAD_ROOT): UploadRequest['files'] {
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new UploadError('Invalid JSON');
  }
  const files = (body as UploadRequest | null)?.files;
  if (!Array.isArray(files) || files.length === 0) throw new UploadError('"files" must be a non-empty list');
  for (const f of files) {
    if (!f || typeof f.path !== 'string' || typeof f.content !== 'string') throw new UploadError('every file needs "path" and "content" (base64)');
    const norm = posix.normalize(f.path);
    if (norm !== f.path || !norm.startsWith(root)) throw new UploadError(`${f.path}: only normalized paths under ${root} can be written`);
    if (f.mode !== undefined && (!Number.isInteger(f.mode) || f.mode < 0 || f.mode > 0o777)) throw new UploadError(`${f.path}: mode must be an integer 0..0o777`);
  }
  return files;
}

export async function writeUpload(files: UploadRequest['files']): Promise<void> {
  for (const f of files) {
    await mkdir(dirname(f.path), { recursive: true });
    const tmp = `${f.path}.upload-${process.pid}`;
    await writeFile(tmp, Buffer.from(f.content, 'base64'), { mode: f.mode ?? 0o644 });
    if (f.mode !== undefined) await chmod(tmp, f.mode); // the umask narrows writeFile's mode
    await rename(tmp, f.path);
  }
}
