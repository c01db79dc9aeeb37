// Tar archives for the engine's put/get archive endpoints (files in and out without bind
// mounts, so a remote engine works the same) and the image's tar answer of GET /artifacts.
// Archives are built as streams: a file given as StreamedContent goes from disk into the
// request chunk by chunk, never whole in memory.
import { pack, extract, type Header } from 'tar-stream';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { StreamedContent, TreeEntry } from './types.js';

export interface TarEntry {
  /** Path inside the archive, relative (no leading slash). */
  name: string;
  content: string | Buffer | StreamedContent;
  mode?: number;
  /** A symbolic link to this target instead of a file (content ignored). */
  linkname?: string;
  /** A directory instead of a file (content ignored). */
  dir?: boolean;
  /** Owner in the unit (numeric); absent: the engine's default (root). */
  uid?: number;
  gid?: number;
}


function isStreamed(c: TarEntry['content']): c is StreamedContent {
  return typeof c === 'object' && !Buffer.isBuffer(c);
}

/** The whole content of a file given any way (the JSON upload of older images needs it whole). */
export async function contentBytes(c: TarEntry['content']): Promise<Buffer> {
  if (!isStreamed(c)) return typeof c === 'string' ? Buffer.from(c, 'utf8') : c;
  const chunks: Buffer[] = [];
  for await (const chunk of c.open()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The content as a stream and its size (in-memory content is streamed from memory). */
export function contentStream(c: TarEntry['content']): { size: number; stream: Readable } {
  if (isStreamed(c)) return { size: c.size, stream: c.open() };
  const bytes = typeof c === 'string' ? Buffer.from(c, 'utf8') : c;
  return { size: bytes.length, stream: Readable.from([bytes]) };
}

/** A tar stream of the entries, each file's content streamed into it in turn. */
export function packStream(entries: readonly TarEntry[]): Readable {
  const p = pack();
  void (async () => {
    for (const e of entries) {
      const owner = { ...(e.uid !== undefined ? { uid: e.uid } : {}), ...(e.gid !== undefined ? { gid: e.gid } : {}) };
      if (e.linkname !== undefined) {
        p.entry({ name: e.name, type: 'symlink', linkname: e.linkname, mode: 0o777, mtime: new Date(), ...owner });
        continue;
      }
      if (e.dir) {
        p.entry({ name: e.name, type: 'directory', mode: e.mode ?? 0o755, mtime: new Date(), ...owner });
        continue;
      }
      const { size, stream } = contentStream(e.content);
      await pipeline(stream, p.entry({ name: e.name, size, mode: e.mode ?? 0o644, mtime: new Date(), ...owner }));
    }
    p.finalize();
  })().catch((err: unknown) => p.destroy(err as Error));
  // tar-stream's Pack is a streamx Readable, which node's stream functions accept.
  return p as unknown as Readable;
}

export async function packFiles(entries: TarEntry[]): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of packStream(entries)) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Reads the regular files `pick` names (by the key it returns) out of a tar stream; the first
 * entry for a key wins. Every other entry is drained without being buffered, so a large
 * unrelated file costs no memory.
 */
async function pickFiles(stream: Readable, pick: (header: Header) => string | null): Promise<Map<string, Buffer>> {
  const ex = extract();
  const out = new Map<string, Buffer>();
  return new Promise<Map<string, Buffer>>((resolve, reject) => {
    ex.on('entry', (header, body, next) => {
      const key = header.type === 'file' ? pick(header) : null;
      if (key !== null && !out.has(key)) {
        const chunks: Buffer[] = [];
        body.on('data', (c: unknown) => chunks.push(c as Buffer));
        body.on('end', () => {
          out.set(key, Buffer.concat(chunks));
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

/** Returns the content of the first regular file in a tar stream. */
export async function firstFileOf(stream: Readable): Promise<Buffer | null> {
  return (await pickFiles(stream, () => '')).get('') ?? null;
}

/** The wanted files (by path relative to the archived directory) of a directory archive. */
export function filesOf(stream: Readable, wanted: ReadonlySet<string>): Promise<Map<string, Buffer>> {
  return pickFiles(stream, (h) => {
    // Entries are "<dir basename>/<relative path>".
    const rel = h.name.split('/').slice(1).join('/');
    return wanted.has(rel) ? rel : null;
  });
}

/**
 * Every file, directory and symlink of a directory archive (entries "<dir basename>/<path>"),
 * with owner and mode; the directory itself and other kinds (devices, fifos) are left out.
 */
export async function treeOf(stream: Readable): Promise<TreeEntry[]> {
  return [...(await treesOf(stream)).values()].flat();
}

/**
 * The same for an archive of several directories (GET /carry: "state/…", "home/…"): each top
 * folder's entries, relative to it.
 */
export function treesOf(stream: Readable): Promise<Map<string, TreeEntry[]>> {
  const ex = extract();
  const out = new Map<string, TreeEntry[]>();
  const add = (top: string, e: TreeEntry) => {
    const list = out.get(top) ?? [];
    list.push(e);
    out.set(top, list);
  };
  return new Promise<Map<string, TreeEntry[]>>((resolve, reject) => {
    ex.on('entry', (h, body, next) => {
      const [top = '', ...rest] = h.name.split('/');
      const path = rest.filter(Boolean).join('/');
      const type = h.type === 'file' ? 'file' : h.type === 'directory' ? 'dir' : h.type === 'symlink' ? 'symlink' : null;
      const base = { path, mode: (h.mode ?? 0o644) & 0o7777, uid: h.uid ?? 0, gid: h.gid ?? 0 };
      if (!path || !type) {
        body.on('end', next);
        body.resume();
        return;
      }
      if (type !== 'file') {
        add(top, { ...base, type, ...(type === 'symlink' ? { linkname: h.linkname ?? '' } : {}) });
        body.on('end', next);
        body.resume();
        return;
      }
      const chunks: Buffer[] = [];
      body.on('data', (c: unknown) => chunks.push(c as Buffer));
      body.on('end', () => {
        add(top, { ...base, type, content: Buffer.concat(chunks) });
        next();
      });
    });
    ex.on('finish', () => resolve(out));
    ex.on('error', reject);
    stream.on('error', reject);
    stream.pipe(ex);
  });
}

/** Every regular file of a tar stream, by its name in the archive. */
export function tarFiles(stream: Readable): Promise<Map<string, Buffer>> {
  return pickFiles(stream, (h) => h.name);
}
