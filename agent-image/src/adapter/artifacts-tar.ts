// GET /artifacts?format=tar (artifacts-tar): the run's artifact files as one POSIX tar stream,
// each file read from disk in chunks straight into the response. The JSON answer costs a
// base64 copy and a JSON string of every byte on both sides (≈110 ms per MB in the runner);
// this one costs the copy through the socket. Which files are missing or unreadable is known
// before the first byte (every file is opened first) and goes in the answer's headers.
import { closeSync, createReadStream, fstatSync, openSync } from 'node:fs';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { pack } from 'tar-stream';
import type { ArtifactsResponse } from '../contract/routes.js';

export interface OpenArtifact {
  name: string;
  /** -1 for a directory or a link (no bytes). */
  fd: number;
  size: number;
  mtime: number;
  /** A tree's entry (GET /carry) keeps its kind, mode and owner; artifacts are plain 0644 files. */
  kind?: 'directory' | 'symlink';
  linkname?: string;
  mode?: number;
  uid?: number;
  gid?: number;
}

export interface OpenedArtifacts extends Pick<ArtifactsResponse, 'missing' | 'unreadable'> {
  files: OpenArtifact[];
}

/** Opens every artifact that exists now; the caller streams them (sendTar) and that closes them. */
export function openArtifacts(paths: ReadonlyArray<readonly [string, string]>): OpenedArtifacts {
  const out: OpenedArtifacts = { files: [], missing: [], unreadable: [] };
  for (const [path, name] of paths) {
    let fd: number | null = null;
    try {
      fd = openSync(path, 'r');
      const st = fstatSync(fd);
      if (!st.isFile()) throw Object.assign(new Error('not a file'), { code: 'EISDIR' });
      out.files.push({ name, fd, size: st.size, mtime: Math.floor(st.mtimeMs / 1000) });
    } catch (e) {
      if (fd !== null) closeSync(fd);
      const code = (e as NodeJS.ErrnoException).code;
      (code === 'ENOENT' ? out.missing : out.unreadable).push(name);
    }
  }
  return out;
}

const CHUNK = 64 * 1024;

/** A file's bytes as they were when opened: cut at that size if it grew, padded with zeros if it shrank. */
async function* bytesAsOpened(f: OpenArtifact): AsyncGenerator<Buffer> {
  let sent = 0;
  if (f.size > 0) {
    for await (const chunk of createReadStream('', { fd: f.fd, start: 0, end: f.size - 1, autoClose: false, highWaterMark: CHUNK })) {
      sent += (chunk as Buffer).length;
      yield chunk as Buffer;
    }
  }
  if (sent < f.size) yield Buffer.alloc(f.size - sent);
}

/**
 * Writes the opened files as a tar stream (tar-stream's pack: ustar, pax for long names) and
 * ends `out`; closes every descriptor. A file is sent with the size it had when opened, so the
 * archive is always well formed; a reader that goes away ends it with an error, not a hang.
 */
export async function sendTar(out: Writable, files: readonly OpenArtifact[]): Promise<void> {
  const tar = pack();
  // tar-stream's Pack is a streamx Readable, which node's stream functions accept.
  const sending = pipeline(tar as unknown as Readable, out);
  sending.catch(() => {}); // awaited below; an early failure surfaces through the entries too
  try {
    for (const f of files) {
      const header = { name: f.name, mode: f.mode ?? 0o644, mtime: new Date(f.mtime * 1000), ...(f.uid !== undefined ? { uid: f.uid, gid: f.gid ?? 0 } : {}) };
      if (f.kind) {
        await new Promise<void>((resolve, reject) => tar.entry({ ...header, type: f.kind!, ...(f.kind === 'symlink' ? { linkname: f.linkname ?? '' } : {}) }, (e) => (e ? reject(e) : resolve())));
        continue;
      }
      await pipeline(Readable.from(bytesAsOpened(f)), tar.entry({ ...header, size: f.size }));
    }
    tar.finalize();
    await sending;
  } finally {
    for (const f of files) if (f.fd >= 0) closeSync(f.fd);
  }
}
