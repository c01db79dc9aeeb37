// search / regex-search over conversations: participant ids and titles (lower-cased) and the
// content of messages inside the optional date range.
import { fail } from '../framework/errors.js';
import { dateBound, inRange, type Conversation, type Messaging } from './state.js';

export function searchConversations(m: Messaging, o: Record<string, unknown>, matches: (text: string, lowered: boolean) => boolean): string[] {
  const min = dateBound(o.min_date);
  const max = dateBound(o.max_date);
  const hit = (c: Conversation): boolean =>
    c.participant_ids.some((p) => matches(String(p).toLowerCase(), true)) ||
    (typeof c.title === 'string' && matches(c.title.toLowerCase(), true)) ||
    c.messages.some((msg) => inRange(msg, min, max) && typeof msg.content === 'string' && matches(msg.content, false));
  return Object.values(m.conversations).filter(hit).map((c) => c.conversation_id);
}

/**
 * Python `re` pattern → JS RegExp (IGNORECASE). Covers the syntax differences agents use:
 * named groups (?P<n>…) and (?P=n), \A and \Z, `{,n}` quantifiers, a leading (?i) flag group and
 * a `]` first in a character class (a literal in Python: `[]` is unterminated there, not empty).
 */
export function pythonRegex(pattern: string): RegExp {
  const js = leadingBracketsLiteral(pattern)
    .replace(/^\(\?i\)/, '')
    .replace(/\(\?P<([A-Za-z_]\w*)>/g, '(?<$1>')
    .replace(/\(\?P=([A-Za-z_]\w*)\)/g, '\\k<$1>')
    .replace(/\\A/g, '^')
    .replace(/\\Z/g, '$(?![\\s\\S])')
    .replace(/(?<!\\)\{,(\d+)\}/g, '{0,$1}');
  try {
    return new RegExp(js, 'iu');
  } catch {
    try {
      return new RegExp(js, 'i');
    } catch (e) {
      return fail(`Invalid regular expression ${JSON.stringify(pattern)}: ${(e as Error).message.replace(/^Invalid regular expression: /, '')}`);
    }
  }
}

/** Escapes a `]` that opens a character class (`[]…]`, `[^]…]`), which Python reads as a literal. */
function leadingBracketsLiteral(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '\\') {
      out += ch + (pattern[i + 1] ?? '');
      i++;
    } else if (!inClass && ch === '[') {
      inClass = true;
      out += ch;
      if (pattern[i + 1] === '^') out += pattern[++i];
      if (pattern[i + 1] === ']') {
        out += '\\]';
        i++;
      }
    } else {
      if (inClass && ch === ']') inClass = false;
      out += ch;
    }
  }
  return out;
}
