// Server-sent-event bodies as logged in trace.jsonl `raw_response`.

/** SSE when a `data: ` line appears early, or the body opens with an SSE comment. */
export function looksLikeSse(text: string): boolean {
  return text.startsWith(': ') || text.slice(0, 2000).includes('data: ');
}

/** The JSON payloads of the `data:` lines; `[DONE]` and unparsable payloads are dropped. */
export function parseSseEvents(text: string): unknown[] {
  const out: unknown[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (!line.startsWith('data:')) continue;
    const payload = line.slice(5).trim();
    if (!payload || payload === '[DONE]') continue;
    try {
      out.push(JSON.parse(payload));
    } catch {
      // A torn or non-JSON data line: keep the rest of the stream.
    }
  }
  return out;
}
