// Content hashes of files (scenario hashes, scripts, the result cache's keys).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

export function sha256Hex(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function sha256File(file: string): string {
  return sha256Hex(readFileSync(file));
}
