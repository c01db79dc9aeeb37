// GET /artifacts?format=tar (artifacts-tar): the run's artifact files as one POSIX tar stream,
// each file read from disk in chunks straight into the response. The JSON answer costs a
// base64 copy and a JSON string of every byte on both sides (≈110 ms per MB in the runner);
// this one costs the copy through the socket. Which files are missing or unreadable is known
// before the first byte (every file is opened first) and goes in the answer's headers.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { ArtifactsResponse } from '../contract/routes.js';

export interface OpenArtifact {
  name: string;
  fd: number;
  size: number;
  mtime: number;
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

const BLOCK = 512;
const CHUNK = 64 * 1024;

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, '0') + '\0';
}

/** A ustar header block; names past 100 bytes go in a pax header record before it. */
export function tarHeader(name: string, size: number, mtime: number, type: '0' | 'x' = '0'): Buffer {
  const h = Buffer.alloc(BLOCK);
  h.write(name.slice(0, 100), 0, 'utf8');
  h.write(octal(0o644, 8), 100);
  h.write(octal(0, 8), 108);
  h.write(octal(0, 8), 116);
  h.write(octal(size, 12), 124);
  h.write(octal(mtime, 12), 136);
  h.write('        ', 148); // the checksum counts its own field as spaces
  h.write(type, 156);
  h.write('ustar\0' + '00', 257, 'binary');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(octal(sum, 7) + ' ', 148);
  return h;
}

function entryHeader(name: string, size: number, mtime: number): Buffer {
  if (Buffer.byteLength(name) <= 100) return tarHeader(name, size, mtime);
  // "<len> path=<name>\n", where <len> counts the whole record, its own digits included.
  const body = ` path=${name}\n`;
  let len = Buffer.byteLength(body);
  len += String(len + String(len).length).length;
  const record = Buffer.from(`${len}${body}`);
  return Buffer.concat([tarHeader('PaxHeader', record.length, mtime, 'x'), record, Buffer.alloc(pad(record.length)), tarHeader(name.slice(0, 100), size, mtime)]);
}

const pad = (n: number): number => (BLOCK - (n % BLOCK)) % BLOCK;

/** Writes with backpressure; a reader that went away ends the stream with an error, not a hang. */
async function write(out: Writable, chunk: Buffer): Promise<void> {
  if (out.write(chunk)) return;
  const ac = new AbortController();
  try {
    await Promise.race([
      once(out, 'drain', { signal: ac.signal }),
      once(out, 'close', { signal: ac.signal }).then(() => {
        throw new Error('the reader went away');
      }),
    ]);
  } finally {
    ac.abort();
  }
}

/**
 * Writes the opened files as a tar stream and ends `out`; closes every descriptor. A file is
 * sent with the size it had when opened (a file that grew is cut there, one that shrank is
 * padded with zeros), so the archive is always well formed.
 */
export async function sendTar(out: Writable, files: readonly OpenArtifact[]): Promise<void> {
  const buf = Buffer.allocUnsafe(CHUNK);
  try {
    for (const f of files) {
      await write(out, entryHeader(f.name, f.size, f.mtime));
      let sent = 0;
      while (sent < f.size) {
        const n = readSync(f.fd, buf, 0, Math.min(CHUNK, f.size - sent), sent);
        if (n === 0) break;
        await write(out, Buffer.from(buf.subarray(0, n)));
        sent += n;
      }
      if (sent < f.size) await write(out, Buffer.alloc(f.size - sent));
      await write(out, Buffer.alloc(pad(f.size)));
    }
    out.end(Buffer.alloc(2 * BLOCK));
  } finally {
    for (const f of files) closeSync(f.fd);
  }
}
