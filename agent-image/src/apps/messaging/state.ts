// MessagingAppV2 state (messages.json / chats.json): conversations keyed by id, the user
// directory (id_to_name / name_to_id), the current user and the addressing mode. Unlike the
// other apps a missing state file is an error (reference behaviour).
import { pySetOrder } from '../framework/py-set.js';
import { isPyNumber, num, pyFloat } from '../../contract/pyjson.js';
import { readAttachment } from '../framework/drive.js';
import { AppError, fail } from '../framework/errors.js';
import { codepointCompare, pyHashKey, pyIter, pyTypeName } from '../framework/py-builtins.js';
import { pyStr } from '../framework/python.js';
import { parseDateTime } from '../framework/time.js';
import type { AppContext } from '../framework/types.js';
import { viewOf } from '../framework/state-views.js';

export type Message = Record<string, unknown>;
export interface Conversation extends Record<string, unknown> {
  participant_ids: string[];
  messages: Message[];
  title: unknown;
  conversation_id: string;
  last_updated: unknown;
}

export interface Messaging {
  raw: Record<string, unknown>;
  me: string;
  idToName: Record<string, string>;
  nameToId: Record<string, string>;
  conversations: Record<string, Conversation>;
  phoneMode: boolean;
  conversationViewLimit: number;
  messagesViewLimit: number;
}

/** How the two binaries differ: the state name and how unknown ids enter default titles. */
export interface Flavour {
  stateName: string;
  /** chats keeps unknown participant ids in default titles, messages drops them. */
  rawIdsInTitles: boolean;
}

const obj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

export function loadMessaging(ctx: AppContext, flavour: Flavour): Messaging {
  const raw = ctx.loadState();
  if (!raw || Object.keys(raw).length === 0) return fail(`State file for ${flavour.stateName} not found`);
  for (const key of ['current_user_id', 'id_to_name', 'name_to_id', 'conversations']) {
    if (!(key in raw)) throw new AppError(`${flavour.stateName} state is missing the required key '${key}'`);
  }
  if (!obj(raw.conversations) || !obj(raw.id_to_name) || !obj(raw.name_to_id)) {
    throw new AppError(`${flavour.stateName} state: conversations, id_to_name and name_to_id must be JSON objects`);
  }
  const conversations = raw.conversations;
  // Checked once per stored conversations object (commands only ever store well-formed ones).
  viewOf(conversations, 'checked', () => {
    for (const [id, c] of Object.entries(conversations)) {
      if (!obj(c) || !Array.isArray(c.participant_ids) || !Array.isArray(c.messages)) {
        throw new AppError(`${flavour.stateName} state: conversation ${id} needs participant_ids and messages lists`);
      }
    }
    return true;
  });
  const limit = (v: unknown, d: number): number => (isPyNumber(v) ? num(v) : d);
  return {
    raw,
    me: String(raw.current_user_id),
    idToName: raw.id_to_name as Record<string, string>,
    nameToId: raw.name_to_id as Record<string, string>,
    conversations: raw.conversations as Record<string, Conversation>,
    phoneMode: (raw.mode ?? 'NAME') === 'PHONE_NUMBER',
    conversationViewLimit: limit(raw.conversation_view_limit, 5),
    messagesViewLimit: limit(raw.messages_view_limit, 10),
  };
}

export const saveMessaging = (ctx: AppContext, m: Messaging): void => ctx.saveState(m.raw);

const has = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/** Title of a conversation with these participants: the others' names, sorted, comma-joined. */
export function defaultTitle(m: Messaging, flavour: Flavour, ids: readonly string[]): string {
  const names: string[] = [];
  for (const id of ids) {
    if (id === m.me) continue;
    if (has(m.idToName, id)) names.push(m.idToName[id]!);
    else if (flavour.rawIdsInTitles) names.push(id);
  }
  return names.sort(codepointCompare).join(', ');
}

/** The reference's check of user ids; ids may be any JSON value, checked as Python would. */
export function validateIds(m: Messaging, ids: readonly unknown[]): void {
  const isDigit = (c: unknown): boolean => {
    if (typeof c !== 'string') return fail(`'${pyTypeName(c)}' object has no attribute 'isdigit'`);
    return c !== '' && /^\p{Nd}+$/u.test(c);
  };
  for (const id of ids) {
    if (m.phoneMode) {
      if (!pyIter(id).some(isDigit)) fail(`User ${pyStr(id)} is not a valid phone number, you need to provide the phone number of an existing user`);
    } else {
      pyHashKey(id); // `id not in dict` needs a hashable id
      if (typeof id !== 'string' || !has(m.idToName, id)) fail(`User ${pyStr(id)} does not exist in Ids, you need to provide the Id of an existing user`);
    }
  }
}

export function conversation(m: Messaging, id: string, message = `Conversation with id ${id} not found`): Conversation {
  if (!has(m.conversations, id)) return fail(message);
  return m.conversations[id]!;
}

export const sameMembers = (a: readonly string[], b: readonly string[]): boolean => {
  const x = new Set(a);
  const y = new Set(b);
  return x.size === y.size && [...x].every((v) => y.has(v));
};

/** A message from the current user; the id is drawn before any conversation id (reference order). */
export function newMessage(ctx: AppContext, m: Messaging, content: unknown, attachmentPath: unknown): Message {
  const msg: Message = { sender_id: m.me, message_id: ctx.newId(), timestamp: pyFloat(ctx.now), content };
  if (attachmentPath !== null && attachmentPath !== undefined) {
    const [name, b64] = readAttachment(ctx.fsRoot, String(attachmentPath), (p) => `File ${p} does not exist`);
    msg.attachment = b64;
    msg.attachment_name = name;
  }
  return msg;
}

export function appendMessage(c: Conversation, msg: Message): void {
  c.messages.push(msg);
  c.last_updated = num(msg.timestamp) > num(c.last_updated) ? msg.timestamp : c.last_updated;
}

/** `participants` in the order the reference adds them to its set; the stored list has the set's order. */
export function newConversation(ctx: AppContext, title: unknown, participants: readonly string[]): Conversation {
  return { conversation_id: ctx.newId(), title, participant_ids: pySetOrder(participants.map(String)), last_updated: pyFloat(ctx.now), messages: [] };
}

/** Optional `%Y-%m-%d %H:%M:%S` bound; the reference's ValueError text when malformed. */
export function dateBound(v: unknown): number | null {
  if (v === null || v === undefined) return null;
  const p = parseDateTime(String(v));
  if (!p.ok) return fail(p.error);
  return p.epoch;
}

export function inRange(msg: Message, min: number | null, max: number | null): boolean {
  const t = Math.trunc(num(msg.timestamp));
  return (min === null || min <= t) && (max === null || t <= max);
}

export const newestFirst = (msgs: readonly Message[]): Message[] => [...msgs].sort((a, b) => num(b.timestamp) - num(a.timestamp));
