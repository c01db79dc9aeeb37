// contacts.json: {"contacts": {<id>: Contact}, "view_limit": 10}. Contacts print with the
// reference's 15 keys in a fixed order; validation texts follow the reference exactly.
import { isPyNumber, num } from '../../contract/pyjson.js';
import { AppError, fail } from '../framework/errors.js';
import { pyRepr, pyStr } from '../framework/python.js';
import type { AppContext } from '../framework/types.js';
import { viewOf } from '../framework/state-views.js';

export type Contact = Record<string, unknown>;
export interface ContactsState extends Record<string, unknown> {
  contacts: Record<string, Contact>;
}

export const GENDERS = ['Male', 'Female', 'Other', 'Unknown'];
export const STATUSES = ['Student', 'Employed', 'Unemployed', 'Retired', 'Unknown'];

/** The 13 fields add-new-contact takes and edit-contact may change, in ARE order. */
export const EDITABLE = [
  'first_name',
  'last_name',
  'gender',
  'age',
  'nationality',
  'city_living',
  'country',
  'status',
  'job',
  'description',
  'phone',
  'email',
  'address',
] as const;

export function loadContacts(ctx: AppContext): ContactsState {
  const state = ctx.loadState() ?? { contacts: {}, view_limit: 10 };
  if (!state.contacts || typeof state.contacts !== 'object' || Array.isArray(state.contacts)) state.contacts = {};
  // Checked once per stored contacts object (commands only ever store objects in it).
  viewOf(state.contacts as object, 'checked', () => {
    for (const [id, c] of Object.entries(state.contacts as object)) {
      if (!c || typeof c !== 'object' || Array.isArray(c)) throw new AppError(`contacts.json: contacts.${id} must be a JSON object`);
    }
    return true;
  });
  return state as ContactsState;
}

export const viewLimit = (state: ContactsState): number => (isPyNumber(state.view_limit) ? num(state.view_limit) : 10);

const pick = (c: Contact, k: string, d: unknown): unknown => (k in c ? c[k] : d);

export function contactView(c: Contact): Contact {
  const out: Contact = {
    contact_id: pick(c, 'contact_id', ''),
    first_name: pick(c, 'first_name', ''),
    last_name: pick(c, 'last_name', ''),
    is_user: pick(c, 'is_user', false),
    gender: pick(c, 'gender', 'Unknown'),
  };
  for (const k of ['age', 'nationality', 'city_living', 'country']) out[k] = pick(c, k, null);
  out.status = pick(c, 'status', 'Unknown');
  for (const k of ['job', 'description', 'phone', 'email', 'address']) out[k] = pick(c, k, null);
  return out;
}

export function findContact(state: ContactsState, id: string): Contact | undefined {
  const c = Object.prototype.hasOwnProperty.call(state.contacts, id) ? state.contacts[id] : undefined;
  return c && typeof c === 'object' ? c : undefined;
}

/** Python's Enum error shows repr(value): quoted strings, bare numbers. */
const enumRepr = (v: unknown): string => (typeof v === 'string' ? pyRepr(v) : pyStr(v));

/** Field checks shared by add-new-contact and edit-contact (only the keys present are checked). */
export function validateFields(f: Record<string, unknown>): void {
  if ('gender' in f && f.gender !== null && !GENDERS.includes(f.gender as string)) fail(`${enumRepr(f.gender)} is not a valid Gender`);
  if ('status' in f && f.status !== null && !STATUSES.includes(f.status as string)) fail(`${enumRepr(f.status)} is not a valid Status`);
  if ('age' in f && f.age !== null) {
    const a = f.age;
    if (!isPyNumber(a) || num(a) < 1 || num(a) > 100) fail(`Invalid age. ${pyStr(a)}`);
  }
  if ('first_name' in f && f.first_name === null) fail('Invalid first name.');
  if ('last_name' in f && f.last_name === null) fail('Invalid last name.');
  // The reference crashes here (uncaught ValueError); we report the same text as a handled error.
  if ('email' in f && f.email !== null && !String(f.email).includes('@')) fail(`'${pyStr(f.email)}' is not a valid email address for email.`);
}
