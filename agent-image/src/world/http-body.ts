// Reads a request body with a size cap (adapter routes, CLI socket).
import type { IncomingMessage } from 'node:http';

/** The body, or null when it exceeds `max` bytes (the rest is drained and dropped). */
export function readBody(req: IncomingMessage, max = 1 << 20): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= max) chunks.push(c);
    });
    req.on('end', () => resolve(size > max ? null : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
