// A message's identity across requests. Every request repeats (most of) the history, so what
// is new in a request is what follows the longest prefix of keys it shares with the previous
// request and answer. Contents are compared, not counts, so compaction and chained requests
// neither hide nor repeat messages (the viewer's conversation, the tool steps of a trace).
import type { Block, Message } from './blocks.js';

/** Long texts are keyed by length and both ends: full strings would make keying quadratic. */
const textKey = (t: string): string => (t.length <= 160 ? t : `${t.length}:${t.slice(0, 80)}${t.slice(-80)}`);

function blockKey(b: Block): string {
  switch (b.type) {
    case 'text':
      return `t:${textKey(b.text)}`;
    case 'tool_use':
      return `u:${b.id || `${b.name}:${JSON.stringify(b.input)}`}`;
    case 'tool_result':
      return `r:${b.id}:${textKey(b.content)}`;
    case 'raw':
      return `x:${b.rawType}`;
    default:
      return ''; // thinking is often stripped from echoed history
  }
}

export const messageKey = (m: Message): string => `${m.role}\u0000${m.blocks.map(blockKey).join('\u0001')}`;

/** How many leading keys two key lists share. */
export function commonPrefix(a: readonly string[], b: readonly string[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}
