// Universes of real size for the scale bench: the golden samples' apps merged into one
// scenario (all ten apps), every app's items cloned `factor` times with fresh ids and older
// timestamps, so the sample's own items stay the newest and its oracle and verdict hold.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PyFloat, num, parsePyJson, pyDumps } from '../../agent-image/src/contract/pyjson.js';

const root = join(import.meta.dirname, '..', '..');
const SAMPLES = 'test/fixtures/golden/scenarios';
/** Where each app's state comes from (the first sample holding it). */
const SOURCES: Array<[string, string]> = [
  ['Emails', 'search/search_email_flight_code.json'],
  ['Chats', 'adaptability/adapt_chats_kenji_sync.json'],
  ['Calendar', 'adaptability/adapt_chats_kenji_sync.json'],
  ['Contacts', 'adaptability/adapt_chats_kenji_sync.json'],
  ['Messages', 'ambiguity/ambig_messages_which_hana.json'],
  ['Shopping', 'adaptability/adapt_shopping_reorder_cancelled.json'],
  ['Files', 'execution/exec_files_tax_cleanup.json'],
  ['Cabs', 'search/search_cab_cheapest_airport.json'],
  ['RentAFlat', 'search/search_flat_safest_two_bed.json'],
  ['City', 'search/search_flat_safest_two_bed.json'],
];
/** The scenario whose events (task, oracle) the universe keeps. */
export const BASE_SCENARIO = 'search/search_email_flight_code.json';

type Obj = Record<string, unknown>;
const read = (rel: string): Obj => parsePyJson(readFileSync(join(root, SAMPLES, rel), 'utf8')) as Obj;
const clone = <T>(v: T): T => parsePyJson(pyDumps(v)) as T;
const hex = (n: number, i: number): string => `${n.toString(16).padStart(8, '0')}${i.toString(16).padStart(8, '0')}`.padEnd(32, 'a');
const WEEK = 7 * 86400;
const older = (v: unknown, copy: number): unknown => (v instanceof PyFloat || typeof v === 'number' ? new PyFloat(num(v) - copy * WEEK) : v);

/** Clones of a record keyed by id: `idKey` renamed in each clone, timestamps moved back. */
function scaleKeyed(map: Obj, factor: number, idKey: string | null, tweak: (o: Obj, copy: number) => void = () => {}): Obj {
  const out: Obj = { ...map };
  for (let c = 1; c < factor; c++) {
    let i = 0;
    for (const v of Object.values(map)) {
      const id = hex(c, i++);
      const o = clone(v) as Obj;
      if (idKey) o[idKey] = id;
      tweak(o, c);
      out[id] = o;
    }
  }
  return out;
}

/** Pads INBOX to `n` emails (copies of its own, a day apart, older than the sample's). */
function padInbox(s: Obj, n: number): void {
  const inbox = (s.folders as Obj).INBOX as Obj;
  const base = inbox.emails as Obj[];
  const own = base.length;
  for (let i = own; i < n; i++) {
    const e = base[i % own]!;
    base.push({ ...clone(e), email_id: hex(0x30000000, i), timestamp: older(e.timestamp, (i - own + 1) / 7), subject: `${String(e.subject)} (again ${i})` });
  }
}

const SCALERS: Record<string, (s: Obj, f: number) => void> = {
  Emails: (s, f) => {
    for (const folder of Object.values(s.folders as Obj) as Obj[]) {
      const base = folder.emails as Obj[];
      const all = [...base];
      for (let c = 1; c < f; c++) {
        base.forEach((e, i) => all.push({ ...clone(e), email_id: hex(c, i), timestamp: older(e.timestamp, c), subject: `${String(e.subject)} (${c})` }));
      }
      folder.emails = all;
    }
  },
  Chats: (s, f) => scaleConversations(s, f),
  Messages: (s, f) => scaleConversations(s, f),
  Calendar: (s, f) => {
    s.events = scaleKeyed(s.events as Obj, f, 'event_id', (o, c) => {
      o.start_datetime = older(o.start_datetime, c);
      o.end_datetime = older(o.end_datetime, c);
    });
  },
  Contacts: (s, f) => {
    s.contacts = scaleKeyed(s.contacts as Obj, f, 'contact_id', (o, c) => {
      o.first_name = `${String(o.first_name)}${c}`;
    });
  },
  Shopping: (s, f) => {
    s.products = scaleKeyed(s.products as Obj, f, 'product_id', (o, c) => {
      o.name = `${String(o.name)} ${c}`;
      const variants: Obj = {};
      let i = 0;
      for (const v of Object.values(o.variants as Obj) as Obj[]) {
        const id = hex(c + 0x10000000, i++);
        variants[id] = { ...v, item_id: id, product_id: o.product_id };
      }
      o.variants = variants;
    });
  },
  RentAFlat: (s, f) => {
    s.apartments = scaleKeyed(s.apartments as Obj, f, 'apartment_id', (o, c) => {
      o.name = `${String(o.name)} ${c}`;
    });
  },
  City: (s, f) => {
    const crime = s.crime_data as Obj;
    const out: Obj = { ...crime };
    for (let c = 1; c < f; c++) for (const [zip, v] of Object.entries(crime)) out[String(Number(zip) + c * 10000)] = clone(v);
    s.crime_data = out;
  },
  Cabs: (s, f) => {
    const rides = s.ride_history as Obj[];
    const all = [...rides];
    for (let c = 1; c < f; c++) rides.forEach((r, i) => all.push({ ...clone(r), ride_id: hex(c, i), timestamp: older(r.timestamp, c) }));
    s.ride_history = all;
  },
  Files: (s, f) => {
    const tree = s.files as Obj;
    const top = tree.children as Obj[];
    const all = [...top];
    for (let c = 1; c < f; c++) for (const child of top) if (child.type === 'directory' && child.name !== 'home') all.push({ ...clone(child), name: `${String(child.name)}_${c}` });
    tree.children = all;
  },
};

function scaleConversations(s: Obj, f: number): void {
  s.conversations = scaleKeyed(s.conversations as Obj, f, 'conversation_id', (o, c) => {
    o.last_updated = older(o.last_updated, c);
    (o.messages as Obj[]).forEach((m, i) => {
      m.message_id = hex(c + 0x20000000, i);
      m.timestamp = older(m.timestamp, c);
    });
  });
}

export interface UniverseOptions {
  /**
   * INBOX emails before scaling (the sample has 3): the search measure's universe has 5, so its
   * search matching every inbox email returns 5 at 1× and 5,000 at 1,000×. Other apps unchanged.
   */
  inbox?: number;
}

/** The universe at `factor` × the samples' item counts, as scenario JSON text. */
export function universe(factor: number, opts: UniverseOptions = {}): string {
  const base = read(BASE_SCENARIO);
  const apps: Obj[] = [];
  for (const [name, rel] of SOURCES) {
    const app = ((read(rel).apps as Obj[]).find((a) => a.name === name))!;
    const state = app.app_state as Obj;
    if (name === 'Emails' && opts.inbox) padInbox(state, opts.inbox);
    SCALERS[name]!(state, factor);
    apps.push({ name, class_name: app.class_name ?? name, app_state: state });
  }
  apps.push({ name: 'AgentUserInterface', class_name: 'AgentUserInterface', app_state: {} });
  return pyDumps({ ...base, apps });
}
