// Helpers shared by the visible and the ENV email commands.
import { readAttachment } from '../framework/drive.js';
import type { AppContext } from '../framework/types.js';

/** Writes answer {"status": "ok", "email_id": id} and return the id. */
export const ok = (id: unknown, args: Record<string, unknown>) => ({ output: { status: 'ok', email_id: id }, args, ret: id });

/** Reads attachment files from the cloud drive: {basename: base64}; the same basename twice keeps the last. */
export function attachmentsFrom(ctx: AppContext, paths: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of Array.isArray(paths) ? paths : []) {
    const [name, b64] = readAttachment(ctx.fsRoot, String(p), (x) => `File does not exist: ${x}`);
    out[name] = b64;
  }
  return out;
}
