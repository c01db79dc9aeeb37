// POST /files: the runner's way in when it has no archive API (a cluster backend reaches the
// adapter through the API server's pod proxy and has no exec streams). Files are written in
// the request's order; each one lands under a temporary name and is renamed into place, so
// the scenario-ready marker (sent last) is never seen before the scenario is complete.
// PUT /files (files-stream) does the same for one file whose bytes are the request body,
// streamed to disk: a 5 MB scenario is never held whole, nor base64-encoded.
import { createWriteStream } from 'node:fs';
import { chmod, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { dirname, posix } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FILE_PUT_QUERY, UPLOAD_ROOT, type UploadRequest } from '../contract/routes.js';

export class UploadError extends Error {}

/** A path under `root` (normalized) and a mode 0..0o777, or an UploadError naming the field. */
function checkTarget(path: unknown, mode: unknown, root: string): void {
  if (typeof path !== 'string') throw new UploadError('every file needs "path" and "content" (base64)');
  const norm = posix.normalize(path);
  if (norm !== path || !norm.startsWith(root)) throw new UploadError(`${path}: only normalized paths under ${root} can be written`);
  if (mode !== undefined && (typeof mode !== 'number' || !Number.isInteger(mode) || mode < 0 || mode > 0o777)) throw new UploadError(`${path}: mode must be an integer 0..0o777`);
}

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
    if (!f || typeof f.content !== 'string') throw new UploadError('every file needs "path" and "content" (base64)');
    checkTarget(f.path, f.mode, root);
  }
  return files;
}

/** Writes `tmp` through `write`, then gives it its mode and renames it to `path`. */
async function writeInPlace(path: string, mode: number | undefined, write: (tmp: string) => Promise<void>): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.upload-${process.pid}`;
  try {
    await write(tmp);
    if (mode !== undefined) await chmod(tmp, mode); // the umask narrows the mode given at open
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}

export async function writeUpload(files: UploadRequest['files']): Promise<void> {
  for (const f of files) await writeInPlace(f.path, f.mode, (tmp) => writeFile(tmp, Buffer.from(f.content, 'base64'), { mode: f.mode ?? 0o644 }));
}

/** PUT /files' query → where and with which mode (octal text); checked before any byte is read. */
export function parseFilePut(url: URL, root = UPLOAD_ROOT): { path: string; mode: number | undefined } {
  const path = url.searchParams.get(FILE_PUT_QUERY.path);
  if (path === null) throw new UploadError(`PUT /files needs ?${FILE_PUT_QUERY.path}=<absolute path>`);
  const rawMode = url.searchParams.get(FILE_PUT_QUERY.mode);
  const mode = rawMode === null ? undefined : /^[0-7]{1,4}$/.test(rawMode) ? parseInt(rawMode, 8) : NaN;
  checkTarget(path, Number.isNaN(mode) ? rawMode : mode, root);
  return { path, mode };
}

/** The request body is larger than the route takes. */
export class UploadTooLarge extends Error {}

/**
 * Streams a request body into `path` (temporary name, then renamed): nothing is in place unless
 * every byte arrived. A body past `max` bytes, or shorter than its Content-Length (a client
 * that stopped sending), leaves nothing behind.
 */
export async function writeUploadStream(req: IncomingMessage, target: { path: string; mode: number | undefined }, max: number): Promise<number> {
  let size = 0;
  const cap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      done(size > max ? new UploadTooLarge(`body over ${max} bytes`) : null, chunk);
    },
  });
  const declared = req.headers['content-length'] === undefined ? null : Number(req.headers['content-length']);
  await writeInPlace(target.path, target.mode, async (tmp) => {
    await pipeline(req, cap, createWriteStream(tmp, { mode: target.mode ?? 0o644 }));
    if (declared !== null && size !== declared) throw new UploadError(`${target.path}: got ${size} of ${declared} bytes`);
  });
  return size;
}
