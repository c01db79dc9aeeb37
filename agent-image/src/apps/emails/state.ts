// email_client_v2.json: {"user_email", "view_limit", "folders": {NAME: {"folder_name", "emails": [Email]}}}.
// In memory each folder is a list kept newest first (the order saving writes), so listing does
// not sort per call: the view sorts each folder once when it is built. That is the order the
// reference's stable sort gives from the file's order, and every command that depends on order
// goes through a stable sort (an email added or moved goes last, then sorts to its place), so
// outputs are the same. A folder with a timestamp that is not a number keeps file order (no
// total order to sort by: each listing sorts it as the reference would).
// Folders missing from the state are not created (reference behaviour).
// A folder holds one email per id, as the reference's folders (dicts keyed by id) do: an email
// added or moved into a folder that holds its id takes that email's place (see addEmail).
// A command costs what it does, not the folder's size: each folder has an id index (id → email,
// kept by every add and move), an email added to a sorted folder is
// inserted where the stable sort would put it (binary search), and a save rewrites only the
// folders the command added to or took from (`changed`): the others are known to be stored
// as they are (`stored`), with no pass over them. Reading an email (is_read) changes no folder.
import { PyFloat, num, pyFloat } from '../../contract/pyjson.js';
import { BadParameter, fail } from '../framework/errors.js';
import { pyStr } from '../framework/python.js';
import type { AppContext } from '../framework/types.js';
import { setView, viewOf } from '../framework/state-views.js';

export type Email = Record<string, unknown>;

export interface Mailbox {
  raw: Record<string, unknown>;
  userEmail: string;
  /** Each folder's emails; change them only through addEmail / moveEmail (they keep the sets below true). */
  folders: Map<string, Email[]>;
  /** Per folder, email id → the email. */
  ids: Map<string, Map<string, Email>>;
  /** Folders whose timestamps are all numbers: their list is newest first, always. */
  ordered: Set<string>;
  /** Folders whose object in `raw` is `{folder_name, emails}` with this list's emails in this order, newest first: saved as they are while unchanged. */
  stored: Set<string>;
  /** Folders the running command added emails to or took emails from. */
  changed: Set<string>;
}

const DEFAULT_FOLDERS = ['INBOX', 'SENT', 'DRAFT', 'TRASH'];

export function loadMailbox(ctx: AppContext): Mailbox {
  const raw = ctx.loadState() ?? {
    user_email: 'user@example.com',
    view_limit: 5,
    folders: Object.fromEntries(DEFAULT_FOLDERS.map((f) => [f, { folder_name: f, emails: [] }])),
  };
  // Built once per stored state; every write stores a new one (saveMailbox) and hands this view on.
  return viewOf(raw, 'mailbox', () => mailboxOf(raw));
}

function mailboxOf(raw: Record<string, unknown>): Mailbox {
  const box: Mailbox = { raw, userEmail: 'user@example.com', folders: new Map(), ids: new Map(), ordered: new Set(), stored: new Set(), changed: new Set() };
  const src = raw.folders && typeof raw.folders === 'object' && !Array.isArray(raw.folders) ? (raw.folders as Record<string, unknown>) : {};
  for (const [name, folder] of Object.entries(src)) {
    const list = (folder as { emails?: unknown } | null)?.emails;
    // One email per id (the last one read, at the place of the first), as the reference loads a folder.
    const byId = new Map<string, Email>();
    if (Array.isArray(list)) {
      for (const e of list) if (e && typeof e === 'object' && typeof (e as Email).email_id === 'string') byId.set((e as Email).email_id as string, e as Email);
    }
    const emails = [...byId.values()];
    const ordered = emails.every((e) => Number.isFinite(num(e.timestamp)));
    const kept = ordered ? newestFirst(emails) : emails;
    box.folders.set(name, kept);
    box.ids.set(name, byId);
    if (ordered) box.ordered.add(name);
    if (unchangedFolder(folder, name, kept)) box.stored.add(name);
  }
  if (typeof raw.user_email === 'string') box.userEmail = raw.user_email;
  return box;
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

/** A folder newest first, as listing shows it (no pass over a folder whose order is known). */
export function emailsNewestFirst(box: Mailbox, name: string): readonly Email[] {
  const list = folder(box, name);
  return box.ordered.has(name.toUpperCase()) ? list : newestFirstView(list);
}

export function saveMailbox(ctx: AppContext, box: Mailbox): void {
  const folders: Record<string, unknown> = {};
  const lists = new Map<string, Email[]>();
  const before = box.raw.folders as Record<string, unknown>;
  for (const [name, emails] of box.folders) {
    // A folder the command did not add to or take from, stored as the state holds it (most
    // folders of most writes: reading an email changes one object in place), is kept as it is:
    // no pass over it, no copy, the same bytes.
    if (!box.changed.has(name) && box.stored.has(name)) {
      folders[name] = before[name];
      lists.set(name, emails);
      continue;
    }
    if (box.ordered.has(name)) {
      // Kept newest first by every change (addEmail inserts in place): only the state's copy.
      folders[name] = { folder_name: name, emails: [...emails] };
      lists.set(name, emails);
      box.stored.add(name);
      continue;
    }
    const sorted = newestFirst(emails);
    folders[name] = { folder_name: name, emails: sorted };
    lists.set(name, [...sorted]);
    // As the next save would find it: kept only if in order then (a single email with a timestamp that is not a number is).
    if (newestFirstView(sorted) === sorted) box.stored.add(name);
    else box.stored.delete(name);
    if (sorted.every((e) => Number.isFinite(num(e.timestamp)))) box.ordered.add(name);
  }
  const raw = { ...box.raw, user_email: box.raw.user_email ?? box.userEmail, folders };
  // The next command's mailbox is this one, its indexes included: no need to rebuild it from the state.
  setView<Mailbox>(raw, 'mailbox', { raw, userEmail: box.userEmail, folders: lists, ids: box.ids, ordered: box.ordered, stored: box.stored, changed: new Set() });
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

/** A folder's emails (read-only: change them with addEmail / moveEmail); fails when the state has no such folder. */
export function folder(box: Mailbox, name: unknown): readonly Email[] {
  const upper = String(name).toUpperCase();
  const f = box.folders.get(upper);
  if (!f) return fail(`Folder ${upper} not found`);
  return f;
}

/** The first email of a folder (in its order) with this id; fails when the state has no such folder. */
export function findEmail(box: Mailbox, name: string, id: string): Email | undefined {
  folder(box, name);
  return firstWithId(box, name.toUpperCase(), id);
}

/** The first email with this id in the first folder (in the state's order) that holds it. */
export function findInAnyFolder(box: Mailbox, id: string): Email | undefined {
  for (const name of box.folders.keys()) {
    const e = firstWithId(box, name, id);
    if (e) return e;
  }
  return undefined;
}

const firstWithId = (box: Mailbox, name: string, id: string): Email | undefined => box.ids.get(name)!.get(id);

/**
 * Adds an email to a folder where the reference's stable newest-first sort would put it after
 * appending it; into a folder that holds its id, in the place of that email, as the
 * reference's `folder[email_id] = email` keeps the key where it was.
 */
export function addEmail(box: Mailbox, name: string, e: Email): void {
  const upper = name.toUpperCase();
  const list = folder(box, upper) as Email[];
  const ids = box.ids.get(upper)!;
  const id = e.email_id as string;
  const old = ids.get(id);
  const t = num(e.timestamp);
  const ordered = box.ordered.has(upper) && Number.isFinite(t);
  if (old) {
    const at = indexIn(box, upper, old);
    if (!ordered || num(old.timestamp) === t) list[at] = e;
    else {
      // The save sorts by timestamp, ties in the dict's order, which for a folder kept sorted
      // is the list's: the emails of its new timestamp all came before the old one's place
      // (it is newer than they were) or all after it.
      list.splice(at, 1);
      list.splice(countWhile(list, t > num(old.timestamp) ? (x) => x >= t : (x) => x > t), 0, e);
    }
  } else if (ordered) {
    // After every email at least as new (ties keep their order: the new one was last).
    list.splice(countWhile(list, (x) => x >= t), 0, e);
  } else list.push(e);
  if (!ordered) box.ordered.delete(upper);
  ids.set(id, e);
  box.changed.add(upper);
}

/** How many emails lead a newest-first list with timestamps that pass `newer` (a binary search). */
function countWhile(list: readonly Email[], newer: (timestamp: number) => boolean): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (newer(num(list[mid]!.timestamp))) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Where an email of the folder is (found by its timestamp where the folder is ordered). */
function indexIn(box: Mailbox, name: string, e: Email): number {
  const list = box.folders.get(name)!;
  if (box.ordered.has(name)) {
    const t = num(e.timestamp);
    for (let j = countWhile(list, (x) => x > t); j < list.length && num(list[j]!.timestamp) === t; j++) if (list[j] === e) return j;
  }
  return list.indexOf(e);
}

/** Takes an email out of a folder. */
function removeEmail(box: Mailbox, name: string, e: Email): void {
  box.folders.get(name)!.splice(indexIn(box, name, e), 1);
  box.ids.get(name)!.delete(e.email_id as string);
  box.changed.add(name);
}

/** Moves between folders; a move into the same folder is a no-op (delete always re-files into TRASH). */
export function moveEmail(box: Mailbox, id: string, src: string, dest: string, typed: string, always = false): void {
  const e = findEmail(box, src, id);
  if (!e) return fail(`Email with id ${id} does not exist in ${typed}`);
  folder(box, dest);
  if (src === dest && !always) return;
  removeEmail(box, src, e);
  addEmail(box, dest, e);
}

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
