// contacts commands (docs/apps.md).
import { parsePyJson } from '../../contract/pyjson.js';
import { fail } from '../framework/errors.js';
import { pySlice } from '../framework/py-builtins.js';
import { opt } from '../framework/options.js';
import type { AppDef, CommandDef } from '../framework/types.js';
import { EDITABLE, contactView, findContact, loadContacts, validateFields, viewLimit, type Contact } from './state.js';

const CONTACT_ID = opt('contact_id', 'Id of the contact.', { required: true });

const FIELD_HELP: Record<(typeof EDITABLE)[number], string> = {
  first_name: 'First name.',
  last_name: 'Last name.',
  gender: 'Male, Female, Other or Unknown.',
  age: 'Age (1-100).',
  nationality: 'Nationality.',
  city_living: 'City of residence.',
  country: 'Country.',
  status: 'Student, Employed, Unemployed, Retired or Unknown.',
  job: 'Job.',
  description: 'Description.',
  phone: 'Phone number.',
  email: 'Email address.',
  address: 'Postal address.',
};

const fullName = (c: Contact): string => `${String(c.first_name ?? '')} ${String(c.last_name ?? '')}`;

const commands: CommandDef[] = [
  {
    name: 'get-contacts',
    fn: 'get_contacts',
    write: false,
    help: 'List contacts, one page of view_limit contacts from offset.',
    options: [opt('offset', 'Index of the first contact.', { type: 'integer', default: 0 })],
    run: (o, ctx) => {
      const state = loadContacts(ctx);
      const all = Object.values(state.contacts).map(contactView);
      const offset = o.offset as number;
      const limit = viewLimit(state);
      const out = { contacts: pySlice(all, offset, offset + limit), metadata: { range: [offset, Math.min(offset + limit, all.length)], total: all.length } };
      return { output: out, args: { offset }, ret: out };
    },
  },
  {
    name: 'get-contact',
    fn: 'get_contact',
    write: false,
    help: 'Get a contact by its id.',
    options: [CONTACT_ID],
    run: (o, ctx) => {
      const c = findContact(loadContacts(ctx), String(o.contact_id));
      if (!c) return fail(`Contact ${String(o.contact_id)} does not exist.`);
      const v = contactView(c);
      return { output: v, args: { contact_id: o.contact_id }, ret: v };
    },
  },
  {
    name: 'get-current-user-details',
    fn: 'get_current_user_details',
    write: false,
    help: "Get the current user's own contact details.",
    options: [],
    run: (_o, ctx) => {
      const me = Object.values(loadContacts(ctx).contacts).find((c) => c && c.is_user === true);
      if (!me) return fail('User Contact does not exist.');
      const v = contactView(me);
      return { output: v, args: {}, ret: v };
    },
  },
  {
    name: 'add-new-contact',
    fn: 'add_new_contact',
    write: true,
    help: 'Add a new contact.',
    options: EDITABLE.map((k) =>
      opt(k, FIELD_HELP[k], { required: k === 'first_name' || k === 'last_name', type: k === 'age' ? 'integer' : 'text' }),
    ),
    run: (o, ctx) => {
      const state = loadContacts(ctx);
      const args = Object.fromEntries(EDITABLE.map((k) => [k, o[k]]));
      const name = fullName(args).toLowerCase();
      const dup = Object.values(state.contacts).find((c) => c && fullName(c).toLowerCase() === name);
      if (dup) fail(`Contact already exists with contact id - ${String(dup.contact_id)}.`);
      validateFields(args);
      const id = ctx.newId();
      state.contacts[id] = contactView({ ...args, contact_id: id, is_user: false, gender: args.gender ?? 'Unknown', status: args.status ?? 'Unknown' });
      ctx.saveState(state);
      return { output: { status: 'success', contact_id: id }, args, ret: id };
    },
  },
  {
    name: 'edit-contact',
    fn: 'edit_contact',
    write: true,
    help: 'Edit a contact: --updates is a JSON object of the fields to change.',
    options: [CONTACT_ID, opt('updates', 'JSON object, e.g. {"job": "Nurse"}.', { required: true })],
    run: (o, ctx) => {
      let updates: unknown;
      try {
        updates = parsePyJson(String(o.updates));
      } catch (e) {
        return fail(`Invalid JSON for updates: ${(e as Error).message}`);
      }
      if (!updates || typeof updates !== 'object' || Array.isArray(updates)) return fail('Invalid JSON for updates: expected a JSON object');
      const state = loadContacts(ctx);
      const id = String(o.contact_id);
      const c = findContact(state, id);
      if (!c) return fail('Contact does not exist.');
      const u = updates as Record<string, unknown>;
      for (const k of Object.keys(u)) if (!(EDITABLE as readonly string[]).includes(k)) fail(`${k} is not a valid attribute of Contact.`);
      validateFields(u);
      Object.assign(c, u);
      ctx.saveState(state);
      const message = `Contact ${id} updated successfully.`;
      return { output: { status: 'success', message }, args: { contact_id: id, updates: u }, ret: message };
    },
  },
  {
    name: 'delete-contact',
    fn: 'delete_contact',
    write: true,
    help: 'Delete a contact by its id.',
    options: [CONTACT_ID],
    run: (o, ctx) => {
      const state = loadContacts(ctx);
      const id = String(o.contact_id);
      if (!findContact(state, id)) fail('Contact does not exist.');
      delete state.contacts[id];
      ctx.saveState(state);
      const message = `Contact ${id} successfully deleted.`;
      return { output: { status: 'success', message }, args: { contact_id: id }, ret: message };
    },
  },
  {
    name: 'search-contacts',
    fn: 'search_contacts',
    write: false,
    help: 'Search contacts by name, phone or email (case-insensitive).',
    options: [opt('query', 'Text to search for.', { required: true })],
    run: (o, ctx) => {
      const q = String(o.query).toLowerCase();
      const has = (v: unknown): boolean => typeof v === 'string' && v.toLowerCase().includes(q);
      const hits = Object.values(loadContacts(ctx).contacts)
        .filter((c) => {
          const first = String(c.first_name ?? '');
          const last = String(c.last_name ?? '');
          return [c.first_name, c.last_name, c.phone, c.email, `${first} ${last}`, `${last} ${first}`].some(has);
        })
        .map(contactView);
      return { output: hits, args: { query: o.query }, ret: hits };
    },
  },
];

export const contactsApp: AppDef = {
  cli: 'contacts',
  stateName: 'Contacts',
  help: 'Contacts: list, search, add, edit and delete contacts.',
  commands,
};
