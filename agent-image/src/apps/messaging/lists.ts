// The paginated conversation listings shared by list-recent-conversations and
// list-conversations-by-participant, with the reference's limit checks.
import { fail } from '../framework/errors.js';
import { intOpt } from '../framework/options.js';
import { pySlice } from '../framework/py-builtins.js';
import type { OptionDef } from '../framework/types.js';
import { newestFirst, type Conversation, type Messaging } from './state.js';

export const listOptions = (recentMessages: number): OptionDef[] => [
  intOpt('offset', 0, 'Index of the first conversation.'),
  intOpt('limit', 5, 'Maximum number of conversations.'),
  intOpt('offset_recent_messages_per_conversation', 0, 'Index of the first message shown per conversation.'),
  intOpt('limit_recent_messages_per_conversation', recentMessages, 'Maximum number of messages shown per conversation.'),
];

const tooMany = (n: number): string => `Limit must be smaller than the view limit of ${n} - Please use a smaller limit and use offset to navigate`;

/** Pages `selected` (already ordered) after checking the limits against all conversations. */
export function pageConversations(m: Messaging, selected: Conversation[], o: Record<string, unknown>): Conversation[] {
  const offset = o.offset as number;
  const limit = o.limit as number;
  const mOffset = o.offset_recent_messages_per_conversation as number;
  const mLimit = o.limit_recent_messages_per_conversation as number;
  if (limit > m.conversationViewLimit) fail(tooMany(m.conversationViewLimit));
  if (offset < 0) fail('Offset must be non-negative');
  if (offset > Object.keys(m.conversations).length) fail('Offset is larger than the number of conversations');
  if (mLimit > m.messagesViewLimit) fail(tooMany(m.messagesViewLimit));
  if (mOffset < 0) fail('Offset must be non-negative');
  return pySlice(selected, offset, Math.min(selected.length, offset + limit)).map((c) => {
    const msgs = newestFirst(c.messages);
    return { ...c, messages: pySlice(msgs, mOffset, Math.min(msgs.length, mOffset + mLimit)) };
  });
}

export const listArgs = (o: Record<string, unknown>) => ({
  offset: o.offset,
  limit: o.limit,
  offset_recent_messages_per_conversation: o.offset_recent_messages_per_conversation,
  limit_recent_messages_per_conversation: o.limit_recent_messages_per_conversation,
});
