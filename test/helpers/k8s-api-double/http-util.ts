// Small HTTP helpers shared by the API and admin routes.
import type http from 'node:http';
import { ApiError } from './status.js';

/** The API server refuses request bodies past 3 MiB. */
export const MAX_BODY_BYTES = 3 * 1024 * 1024;

export function readBody(req: http.IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) { reject(new ApiError(413, 'RequestEntityTooLarge', 'Request entity too large: limit is 3145728')); req.resume(); return; }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export async function readJson(req: http.IncomingMessage): Promise<unknown> {
  const raw = await readBody(req);
  if (!raw.length) return undefined;
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch (err) {
    throw new ApiError(400, 'BadRequest', `couldn't get version/kind; json parse error: ${(err as Error).message}`);
  }
}

export function sendJson(res: http.ServerResponse, code: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(code, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
}
