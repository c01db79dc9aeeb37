// email_client_v2.json: {"user_email", "view_limit", "folders": {NAME: {"folder_name", "emails": [Email]}}}.
// In memory each folder is a list kept newest first (the order saving writes), so listing does
// not sort per call: the view sorts each folder once when it is built. That is the order the
// reference's stable sort gives from the file's order, and every command that depends on order
// goes through a stable sort (an email added or moved goes last, then sorts to its place), so
// outputs are the same. A folder with a timestamp that is not a number keeps file order (no
// total order to sort by: each listing sorts it as the reference would).
// Folders missing from the state are not created (reference behaviour).
import { PyFloat, num, pyFloat } from '../../contract/pyjson.js';
import { BadParameter, fail } from '../framework/errors.js';
import { pyStr } from '../framework/python.js';
import type { AppContext } from '../framework/types.js';
import { setView, viewOf } from '../framework/state-views.js';

export type Email = Record<string, unknown>;

export interface Mailbox {
  raw: Record<string, unknown>;
  userEmail: string;
  folders: Map<string, Email[]>;
}

const DEFAULT_FOLDERS = ['INBOX', 'SENT', 'DRAFT', 'TRASH'];

export function loadMailbox(ctx: AppContext): Mailbox {
  const raw = ctx.loadState() ?? {
    user_email: 'user@example.com',
    view_limit: 5,
    folders: Object.fromEntries(DEFAULT_FOLDERS.map((f) => [f, { folder_name: f, emails: [] }])),
  };
  // Built once per stored state; every write stores a new one (saveMailbox).
  return viewOf(raw, 'mailbox', () => mailboxOf(raw));
}

function mailboxOf(raw: Record<string, unknown>): Mailbox {
  const folders = new Map<string, Email[]>();
  const src = raw.folders && typeof raw.folders === 'object' && !Array.isArray(raw.folders) ? (raw.folders as Record<string, unknown>) : {};
  for (const [name, folder] of Object.entries(src)) {
    const list = (folder as { emails?: unknown } | null)?.emails;
    const byId = new Map<string, Email>();
    if (Array.isArray(list)) {
      for (const e of list) if (e && typeof e === 'object' && typeof (e as Email).email_id === 'string') byId.set((e as Email).email_id as string, e as Email);
    }
    const emails = [...byId.values()];
    folders.set(name, emails.every((e) => Number.isFinite(num(e.timestamp))) ? newestFirst(emails) : emails);
  }
  const userEmail = typeof raw.user_email === 'string' ? raw.user_email : 'user@example.com';
  return { raw, userEmail, folders };
}

const byNewest = (a: Email, b: Email): number => num(b.timestamp) - num(a.timestamp);

/** Newest first, read-only: the list itself when it is in that order already (the usual case), else a sorted copy. */
export function newestFirstView(emails: readonly Email[]): readonly Email[] {
  for (let i = 1; i < emails.length; i++) {
    // A NaN difference (a timestamp that is not a number) is not "in order": sort as before.
    if (!(byNewest(emails[i - 1]!, emails[i]!) <= 0)) return [...emails].sort(byNewest);
  }
  return emails;
}

/** Newest first, a new list; ties keep their order (Python's sort is stable). */
export const newestFirst = (emails: readonly Email[]): Email[] => {
  const v = newestFirstView(emails);
  return v === emails ? [...emails] : (v as Email[]);
};

export function saveMailbox(ctx: AppContext, box: Mailbox): void {
  const folders: Record<string, unknown> = {};
  const lists = new Map<string, Email[]>();
  const before = box.raw.folders as Record<string, unknown> | undefined;
  for (const [name, emails] of box.folders) {
    // A folder the command left as the state holds it (most folders of most writes: reading an
    // email changes one object in place) is kept as it is: no sort, no copy, the same bytes.
    const kept = unchangedFolder(before?.[name], name, emails);
    if (kept) {
      folders[name] = kept;
      lists.set(name, emails);
      continue;
    }
    const sorted = newestFirst(emails);
    folders[name] = { folder_name: name, emails: sorted };
    lists.set(name, [...sorted]);
  }
  const raw = { ...box.raw, user_email: box.raw.user_email ?? box.userEmail, folders };
  // The next command's mailbox is this one in file order: no need to rebuild it from the state.
  setView(raw, 'mailbox', { raw, userEmail: box.userEmail, folders: lists });
  ctx.saveState(raw);
}

/** The state's folder object when it is `{folder_name, emails}` with exactly these emails, newest first. */
function unchangedFolder(f: unknown, name: string, emails: readonly Email[]): unknown {
  if (!f || typeof f !== 'object') return null;
  const keys = Object.keys(f);
  const list = (f as { emails?: unknown }).emails;
  if (keys.length !== 2 || keys[0] !== 'folder_name' || keys[1] !== 'emails' || (f as { folder_name?: unknown }).folder_name !== name) return null;
  if (!Array.isArray(list) || list === emails || list.length !== emails.length) return null;
  for (let i = 0; i < list.length; i++) if (list[i] !== emails[i]) return null;
  return newestFirstView(emails) === emails ? f : null;
}

export function folder(box: Mailbox, name: unknown): Email[] {
  const upper = String(name).toUpperCase();
  const f = box.folders.get(upper);
  if (!f) return fail(`Folder ${upper} not found`);
  return f;
}

export const findIn = (emails: readonly Email[], id: string): Email | undefined => emails.find((e) => e.email_id === id);

export function newEmail(ctx: AppContext, fields: Omit<Email, 'email_id' | 'timestamp'>): Email {
  return {
    sender: fields.sender,
    recipients: fields.recipients,
    subject: fields.subject,
    content: fields.content,
    email_id: ctx.newId(),
    parent_id: fields.parent_id ?? null,
    cc: fields.cc ?? [],
    attachments: fields.attachments ?? {},
    timestamp: pyFloat(ctx.now),
    is_read: fields.is_read,
  };
}

const pyTypeName = (v: unknown): string =>
  v === null ? 'NoneType' : typeof v === 'string' ? 'str' : typeof v === 'boolean' ? 'bool' : typeof v === 'number' ? 'int' : Array.isArray(v) ? 'list' : v instanceof PyFloat ? 'float' : 'dict';

/** Click callback of the JSON-list options: usage error on bad JSON or a non-list, items as str. */
export function jsonList(parse: (t: string) => unknown) {
  return (raw: unknown): unknown => {
    let v: unknown;
    try {
      v = parse(String(raw));
    } catch {
      throw new BadParameter(`Invalid JSON list: ${String(raw)}`);
    }
    if (!Array.isArray(v)) throw new BadParameter(`Expected a JSON list, got: ${pyTypeName(v)}`);
    return v.map((x) => (typeof x === 'string' ? x : pyStr(x)));
  };
}

export function checkAddresses(list: unknown, field: string): void {
  if (!Array.isArray(list)) return;
  for (const a of list) if (!String(a).includes('@')) fail(`'${String(a)}' is not a valid email address for ${field}.`);
}
