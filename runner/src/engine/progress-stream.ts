// The JSON progress streams the engine answers pulls, imports and builds with. An engine can
// answer 200 and still fail: podman reports a registry it cannot reach as an `error` item inside
// the stream (Docker answers 500 with a JSON message instead, which dockerode rejects). So a
// stream's end proves nothing; its items are read for errors.
import type { Readable } from 'node:stream';

/** One item of a progress stream (the fields both engines use). */
export interface ProgressItem {
  status?: string;
  /** A progress bar's text (pull, push). */
  progress?: string;
  stream?: string;
  id?: string;
  error?: string;
  errorDetail?: { message?: string } | string;
}

/** The failure an engine reported inside a progress stream; null when it reported none. */
export function streamFailure(items: readonly ProgressItem[]): string | null {
  for (const item of items) {
    if (item.error) return item.error;
    if (item.errorDetail) {
      const d = item.errorDetail;
      return (typeof d === 'string' ? d : d.message) || 'the engine reported an error without a message';
    }
  }
  return null;
}

/**
 * Reads a whole progress stream (newline-separated JSON items); rejects when the transport
 * fails or the engine reported an error item, with the engine's own words.
 */
export async function readProgress(stream: Readable, onItem?: (item: ProgressItem) => void): Promise<ProgressItem[]> {
  const items: ProgressItem[] = [];
  let rest = '';
  const take = (line: string) => {
    const t = line.trim();
    if (!t) return;
    let item: ProgressItem;
    try {
      item = JSON.parse(t) as ProgressItem;
    } catch {
      item = { stream: t };
    }
    items.push(item);
    onItem?.(item);
  };
  for await (const chunk of stream) {
    rest += typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('utf8');
    const lines = rest.split('\n');
    rest = lines.pop() ?? '';
    lines.forEach(take);
  }
  take(rest);
  const failure = streamFailure(items);
  if (failure) throw new Error(failure);
  return items;
}
