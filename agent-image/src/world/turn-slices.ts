// Turn slices for the daemon's judge calls, on top of the judge's own turn split.
import { sliceTurns, turnSlice, type CompletedEvent } from '../judge/index.js';
import { isReplyEvent } from './judging.js';

/** Reference slice of turn k: between reply k-1 and reply k (W1 for the last turn). */
export const sliceTurn = (events: readonly CompletedEvent[], turn: number): CompletedEvent[] => turnSlice(events, turn);

/**
 * W1 fix: the final turn runs from reply k-1 up to the LAST reply, so work done after a
 * notification that followed an earlier reply is judged too. Replies before the last one
 * are progress messages ("waiting for the email…") and are left out, so an agent that
 * follows the prompt's reply-and-wait advice is not failed by the reply count.
 */
export function sliceFinalTurn(events: readonly CompletedEvent[], turn: number): CompletedEvent[] {
  const c = sliceTurns(events);
  let last = c.length - 1;
  const tail = c[last]!;
  if (tail.length === 0 || !isReplyEvent(tail[tail.length - 1]!)) last--; // unfinished trailing chunk
  const merged = c.slice(turn, Math.max(turn, last) + 1).flat();
  let lastReply = -1;
  merged.forEach((e, i) => {
    if (isReplyEvent(e)) lastReply = i;
  });
  return merged.filter((e, i) => !isReplyEvent(e) || i === lastReply);
}
