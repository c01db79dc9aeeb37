// Tar archives for the engine's put/get archive endpoints (files in and out without bind
// mounts, so a remote engine works the same).
import { pack, extract } from 'tar-stream';
import type { Readable } from 'node:stream';

export interface TarEntry {
  /** Path inside the archive, relative (no leading slash). */
  name: string;
  content: string | Buffer;
  mode?: number;
  /** A symbolic link to this target instead of a file (content ignored). */
  linkname?: string;
}

export async function packFiles(entries: TarEntry[]): Promise<Buffer> {
  const p = pack();
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    p.on('data', (c: unknown) => chunks.push(c as Buffer));
    p.on('end', () => resolve(Buffer.concat(chunks)));
    p.on('error', reject);
  });
  for (const e of entries) {
    if (e.linkname !== undefined) {
      p.entry({ name: e.name, type: 'symlink', linkname: e.linkname, mode: 0o777, mtime: new Date() });
      continue;
    }
    const body = typeof e.content === 'string' ? Buffer.from(e.content, 'utf8') : e.content;
    p.entry({ name: e.name, mode: e.mode ?? 0o644, mtime: new Date() }, body);
  }
  p.finalize();
  return done;
}

/** Returns the content of the first regular file in a tar stream. */
export async function firstFileOf(stream: Readable): Promise<Buffer | null> {
  const ex = extract();
  let result: Buffer | null = null;
  const done = new Promise<Buffer | null>((resolve, reject) => {
    ex.on('entry', (header, body, next) => {
      const chunks: Buffer[] = [];
      body.on('data', (c: unknown) => chunks.push(c as Buffer));
      body.on('end', () => {
        if (result === null && header.type === 'file') result = Buffer.concat(chunks);
        next();
      });
      body.resume();
    });
    ex.on('finish', () => resolve(result));
    ex.on('error', reject);
    stream.on('error', reject);
  });
  stream.pipe(ex);
  return done;
}

/**
 * Reads the wanted files (by path relative to the archived directory) out of a directory
 * archive; every other entry is drained without being buffered, so a large unrelated file
 * costs no memory.
 */
export async function filesOf(stream: Readable, wanted: ReadonlySet<string>): Promise<Map<string, Buffer>> {
  const ex = extract();
  const out = new Map<string, Buffer>();
  return new Promise<Map<string, Buffer>>((resolve, reject) => {
    ex.on('entry', (header, body, next) => {
      // Entries are "<dir basename>/<relative path>".
      const rel = header.name.split('/').slice(1).join('/');
      if (header.type === 'file' && wanted.has(rel)) {
        const chunks: Buffer[] = [];
        body.on('data', (c: unknown) => chunks.push(c as Buffer));
        body.on('end', () => {
          out.set(rel, Buffer.concat(chunks));
          next();
        });
      } else {
        body.on('end', next);
      }
      body.resume();
    });
    ex.on('finish', () => resolve(out));
    ex.on('error', reject);
    stream.on('error', reject);
    stream.pipe(ex);
  });
}
