// MessagingAppV2 commands (docs/apps.md), shared by `messages` (NAME mode) and `chats`
// (PHONE_NUMBER mode). Writes and most reads print bare JSON values (ids, lists, null).
import { pySetOrder } from '../framework/py-set.js';
import { PyFloat, parsePyJson } from '../../contract/pyjson.js';
import { sequenceRatio } from '../framework/difflib.js';
import { saveToDrive } from '../framework/drive.js';
import { fail } from '../framework/errors.js';
import { intOpt, opt } from '../framework/options.js';
import { pyHashKey, pyIter, pySlice, pyTypeName } from '../framework/py-builtins.js';
import type { AppContext, AppDef, CommandDef } from '../framework/types.js';
import { listArgs, listOptions, pageConversations } from './lists.js';
import { pythonRegex, searchConversations } from './search.js';
import {
  appendMessage,
  conversation,
  dateBound,
  defaultTitle,
  inRange,
  loadMessaging,
  newConversation,
  newMessage,
  newestFirst,
  sameMembers,
  saveMessaging,
  validateIds,
  type Flavour,
  type Messaging,
} from './state.js';

const CONVERSATION_ID = opt('conversation_id', 'Id of the conversation.', { required: true });
const USER_ID = opt('user_id', 'Id of the user (a phone number in chats).', { required: true });
const CONTENT = opt('content', 'Message text.', { default: '' });
const ATTACHMENT = opt('attachment_path', 'Cloud-drive path of a file to attach.');
const DATES = [opt('min_date', 'Earliest message time, YYYY-MM-DD HH:MM:SS.'), opt('max_date', 'Latest message time, YYYY-MM-DD HH:MM:SS.')];

/** The --user-ids JSON, parsed inside the command (bad JSON is a handled error, exit 1). */
function parseIds(raw: unknown): unknown {
  try {
    return parsePyJson(String(raw));
  } catch (e) {
    return fail((e as Error).message);
  }
}

/** len(v) as Python has it for a parsed JSON value. */
function pyLen(v: unknown): number {
  if (typeof v === 'string' || Array.isArray(v) || (v !== null && typeof v === 'object' && !(v instanceof PyFloat))) return pyIter(v).length;
  return fail(`object of type '${pyTypeName(v)}' has no len()`);
}

export function messagingCommands(flavour: Flavour): CommandDef[] {
  type Run = (o: Record<string, unknown>, m: Messaging, ctx: AppContext) => { output: unknown; args: Record<string, unknown> };
  const cmd = (name: string, fn: string, write: boolean, help: string, options: CommandDef['options'], run: Run, hidden = false): CommandDef => ({
    name,
    fn,
    write,
    help,
    options,
    hidden,
    run: (o, ctx) => {
      const r = run(o, loadMessaging(ctx, flavour), ctx);
      return { output: r.output, args: r.args, ret: r.output };
    },
  });
  const title = (m: Messaging, ids: readonly string[]): string => defaultTitle(m, flavour, ids);
  const write = <T>(ctx: AppContext, m: Messaging, value: T): T => (saveMessaging(ctx, m), value);

  /** Retitles a conversation whose title was the default for its old participants. */
  const changeParticipants = (m: Messaging, o: Record<string, unknown>, change: (ids: string[]) => string[]) => {
    const c = conversation(m, String(o.conversation_id));
    const wasDefault = c.title === title(m, c.participant_ids);
    c.participant_ids = change(c.participant_ids);
    if (wasDefault) c.title = title(m, c.participant_ids);
    return c;
  };

  return [
    cmd('get-user-id', 'get_user_id', false, 'Get the id of a user from their exact full name.', [opt('user_name', 'Full name.', { required: true })], (o, m) => ({
      output: Object.prototype.hasOwnProperty.call(m.nameToId, String(o.user_name)) ? m.nameToId[String(o.user_name)] : null,
      args: { user_name: o.user_name },
    })),
    cmd('get-user-name-from-id', 'get_user_name_from_id', false, 'Get the name of a user from their id.', [USER_ID], (o, m) => ({
      output: Object.prototype.hasOwnProperty.call(m.idToName, String(o.user_id)) ? m.idToName[String(o.user_id)] : null,
      args: { user_id: o.user_id },
    })),
    cmd('lookup-user-id', 'lookup_user_id', false, 'Find user ids by (approximate) name.', [opt('user_name', 'Name to look up.', { required: true })], (o, m) => {
      const name = String(o.user_name);
      if (Object.prototype.hasOwnProperty.call(m.nameToId, name)) return { output: { [name]: m.nameToId[name] }, args: { user_name: name } };
      const q = name.toLowerCase().trim();
      const out = Object.fromEntries(Object.entries(m.nameToId).filter(([n]) => sequenceRatio(q, n.toLowerCase()) > 0.65));
      return { output: out, args: { user_name: name } };
    }),
    cmd('send-message', 'send_message', true, 'Send a message to a user (creates the conversation if needed).', [USER_ID, CONTENT, ATTACHMENT], (o, m, ctx) => {
      const user = String(o.user_id);
      const msg = newMessage(ctx, m, o.content, o.attachment_path);
      const want = title(m, [user]);
      let c = Object.values(m.conversations).find((x) => sameMembers(x.participant_ids, [user, m.me]) && x.title === want);
      if (!c) {
        validateIds(m, [user]);
        // The reference builds {user} ∪ {me}, lists it, and stores list(set(that list)).
        c = newConversation(ctx, want, pySetOrder([user, m.me]));
        m.conversations[c.conversation_id] = c;
      }
      appendMessage(c, msg);
      return write(ctx, m, { output: c.conversation_id, args: { user_id: user, content: o.content, attachment_path: o.attachment_path } });
    }),
    cmd('send-message-to-group-conversation', 'send_message_to_group_conversation', true, 'Send a message to a group conversation.', [CONVERSATION_ID, CONTENT, ATTACHMENT], (o, m, ctx) => {
      const id = String(o.conversation_id);
      const c = conversation(m, id, `Conversation ${id} does not exist`);
      if (c.participant_ids.length < 3) fail(`Conversation ${id} is not a group conversation`);
      appendMessage(c, newMessage(ctx, m, o.content, o.attachment_path));
      return write(ctx, m, { output: id, args: { conversation_id: id, content: o.content, attachment_path: o.attachment_path } });
    }),
    cmd('create-group-conversation', 'create_group_conversation', true, 'Create a group conversation with at least two other users.', [opt('user_ids', 'JSON list of the other participants’ ids.', { required: true }), opt('title', 'Title (default: the participants’ names).')], (o, m, ctx) => {
      // Whatever JSON came, Python iterates it (a string per character, a dict per key).
      const parsed = parseIds(o.user_ids);
      if (pyLen(parsed) < 2) fail('Must have at least two other participants');
      validateIds(m, pyIter(parsed));
      pyIter(parsed).forEach(pyHashKey); // set(parsed_ids)
      const ids = pyIter(parsed) as string[];
      const members = [...ids, m.me]; // the reference's set: the given ids, then the current user
      if (new Set(members).size < 3) fail('Must have at least two other participants (do not include your own user id)');
      const c = newConversation(ctx, o.title ?? title(m, members), members);
      m.conversations[c.conversation_id] = c;
      return write(ctx, m, { output: c.conversation_id, args: { user_ids: parsed, title: o.title } });
    }),
    cmd('get-existing-conversation-ids', 'get_existing_conversation_ids', false, 'Ids of the conversations with exactly these participants (and you).', [opt('user_ids', 'JSON list of user ids.', { required: true })], (o, m) => {
      const parsed = parseIds(o.user_ids);
      const target = [...pyIter(parsed).map(pyHashKey), pyHashKey(m.me)];
      const out = Object.values(m.conversations)
        .filter((c) => sameMembers(c.participant_ids.map(pyHashKey), target))
        .map((c) => c.conversation_id);
      return { output: out, args: { user_ids: parsed } };
    }),
    cmd('list-recent-conversations', 'list_recent_conversations', false, 'List conversations, most recently updated first.', listOptions(10), (o, m) => {
      const sorted = Object.values(m.conversations).sort((a, b) => Number(b.last_updated) - Number(a.last_updated));
      return { output: pageConversations(m, sorted, o), args: listArgs(o) };
    }),
    cmd('list-conversations-by-participant', 'list_conversations_by_participant', false, 'List the conversations a user takes part in.', [USER_ID, ...listOptions(5)], (o, m) => {
      const user = String(o.user_id);
      const selected = Object.values(m.conversations).filter((c) => c.participant_ids.some((p) => String(p).includes(user)));
      return { output: pageConversations(m, selected, o), args: { user_id: user, ...listArgs(o) } };
    }),
    cmd('download-attachment', 'download_attachment', true, 'Save the attachment of a message into a cloud-drive folder.', [CONVERSATION_ID, opt('message_id', 'Id of the message.', { required: true }), opt('download_path', 'Cloud-drive folder to save into.', { default: 'Downloads/' })], (o, m, ctx) => {
      const c = conversation(m, String(o.conversation_id));
      const msg = c.messages.find((x) => x && x.message_id === o.message_id);
      if (!msg || !msg.attachment) return fail('No attachment found in the specified message');
      const target = saveToDrive(ctx.fsRoot, String(o.download_path), String(msg.attachment_name ?? 'attachment'), Buffer.from(String(msg.attachment), 'base64'));
      return { output: target, args: { conversation_id: o.conversation_id, message_id: o.message_id, download_path: o.download_path } };
    }),
    cmd('read-conversation', 'read_conversation', false, 'Read the messages of a conversation, newest first.', [CONVERSATION_ID, intOpt('offset', 0, 'Index of the first message.'), intOpt('limit', 10, 'Maximum number of messages.'), ...DATES], (o, m) => {
      const id = String(o.conversation_id);
      const c = conversation(m, id);
      const offset = o.offset as number;
      if (offset < 0) fail('Offset must be positive');
      const min = dateBound(o.min_date);
      const max = dateBound(o.max_date);
      const msgs = newestFirst(c.messages.filter((x) => inRange(x, min, max)));
      if (offset > msgs.length) fail('Offset is larger than the number of messages');
      const end = Math.min(msgs.length, offset + (o.limit as number));
      const output = {
        messages: pySlice(msgs, offset, end),
        metadata: { message_range: [offset, end], conversation_length: msgs.length, conversation_id: id, conversation_title: c.title },
      };
      return { output, args: { conversation_id: id, offset, limit: o.limit, min_date: o.min_date, max_date: o.max_date } };
    }),
    cmd('add-participant-to-conversation', 'add_participant_to_conversation', true, 'Add a user to a conversation.', [CONVERSATION_ID, USER_ID], (o, m, ctx) => {
      const user = String(o.user_id);
      const c = changeParticipants(m, o, (ids) => {
        if (ids.includes(user)) fail(`Participant ${user} already in conversation`);
        return [...ids, user];
      });
      return write(ctx, m, { output: c.conversation_id, args: { conversation_id: o.conversation_id, user_id: user } });
    }),
    cmd('remove-participant-from-conversation', 'remove_participant_from_conversation', true, 'Remove a user from a conversation.', [CONVERSATION_ID, USER_ID], (o, m, ctx) => {
      const user = String(o.user_id);
      const c = changeParticipants(m, o, (ids) => {
        if (!ids.includes(user)) fail(`Participant ${user} not in conversation`);
        return ids.filter((x) => x !== user);
      });
      return write(ctx, m, { output: c.conversation_id, args: { conversation_id: o.conversation_id, user_id: user } });
    }),
    cmd('change-conversation-title', 'change_conversation_title', true, 'Rename a conversation.', [CONVERSATION_ID, opt('title', 'New title.', { required: true })], (o, m, ctx) => {
      const c = conversation(m, String(o.conversation_id));
      c.title = o.title;
      return write(ctx, m, { output: c.conversation_id, args: { conversation_id: o.conversation_id, title: o.title } });
    }),
    cmd('search', 'search', false, 'Find conversations whose participants, title or messages contain the text (case-insensitive).', [opt('query', 'Text to search for.', { required: true }), ...DATES], (o, m) => {
      const q = String(o.query).toLowerCase();
      const out = searchConversations(m, o, (text, lowered) => (lowered ? text : text.toLowerCase()).includes(q));
      return { output: out, args: { query: o.query, min_date: o.min_date, max_date: o.max_date } };
    }),
    cmd('regex-search', 'regex_search', false, 'Find conversations matching a (Python) regular expression, case-insensitive.', [opt('query', 'Regular expression.', { required: true }), ...DATES], (o, m) => {
      const rx = pythonRegex(String(o.query));
      const out = searchConversations(m, o, (text) => rx.test(text));
      return { output: out, args: { query: o.query, min_date: o.min_date, max_date: o.max_date } };
    }),
    cmd('create-and-add-message', 'create_and_add_message', true, 'ENV: a participant sends a message to a conversation.', [CONVERSATION_ID, opt('sender_id', 'Id of the sender.', { required: true }), CONTENT], (o, m, ctx) => {
      const id = String(o.conversation_id);
      const c = conversation(m, id);
      const sender = String(o.sender_id);
      if (!c.participant_ids.includes(sender)) fail(`Sender ${sender} not in conversation`);
      appendMessage(c, { ...newMessage(ctx, m, o.content, null), sender_id: sender });
      return write(ctx, m, { output: id, args: { conversation_id: id, sender_id: sender, content: o.content } });
    }, true),
  ];
}

export function messagingApp(cli: string, flavour: Flavour, help: string): AppDef {
  return { cli, stateName: flavour.stateName, logClass: 'MessagingAppV2', help, commands: messagingCommands(flavour) };
}
