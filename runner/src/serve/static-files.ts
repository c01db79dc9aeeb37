// Static file responses confined to the served root: no listings, no dotfiles, no escaping
// the root through `..` or symlinks.
import { createReadStream, realpathSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.jsonl': 'text/plain; charset=utf-8',
  '.log': 'text/plain; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.rc': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
};

export const BASE_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-cache',
};

function send(res: ServerResponse, code: number, text: string): void {
  res.writeHead(code, { ...BASE_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' });
  res.end(text);
}

/** Resolves a URL path to a file under root, or null when it is not allowed or absent. */
export function resolveUnderRoot(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  const parts = decoded.split('/').filter(Boolean);
  if (parts.some((p) => p === '..' || p.startsWith('.') || p.includes('\\') || p.includes('\0'))) return null;
  let path = join(root, ...parts);
  try {
    if (statSync(path).isDirectory()) path = join(path, 'index.html');
    const real = realpathSync(path);
    if (real !== root && !real.startsWith(root + sep)) return null;
    return statSync(real).isFile() ? real : null;
  } catch {
    return null;
  }
}

export function serveFile(root: string, req: IncomingMessage, res: ServerResponse): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'Method not allowed\n');
  const url = new URL(req.url ?? '/', 'http://localhost');
  const file = resolveUnderRoot(root, url.pathname);
  if (!file) return send(res, 404, 'Not found\n');
  const st = statSync(file);
  const headers: Record<string, string> = {
    ...BASE_HEADERS,
    'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
    'Content-Length': String(st.size),
    'Last-Modified': st.mtime.toUTCString(),
  };
  // Only the generated pages (and their own script) may run; raw artifacts are plain data.
  if (!/(\.html|[\\/]_viewer\.js|[\\/]_viewer\.css)$/.test(file)) headers['Content-Security-Policy'] = "default-src 'none'; sandbox";
  res.writeHead(200, headers);
  if (req.method === 'HEAD') return void res.end();
  createReadStream(file).on('error', () => res.destroy()).pipe(res);
}
