// Background ENV events for the Noise phase, planned the way the reference's scenario
// expander does: a budget of `num_env_events_per_minute × duration / 60` events is split over
// the universe's apps by class weight, and each app's events arrive as a Poisson process
// (exponential inter-arrival times) over the scenario's duration, drawn from that app's own
// universe data (conversations' messages, inbox emails, products and their items and
// discount codes, apartments).
//
// Differences from the reference, on purpose:
// - Universe data: `augmentation_data.apps` when the scenario carries it (as the reference),
//   else the scenario's own app states (so authored scenarios get noise too).
// - App kinds are recognised by every name our registry knows (the reference's lists miss
//   e.g. "Emails").
// - Every noise event depends only on the scenario's start event, with its offset from the
//   start as delay, so chained arrivals keep the reference's timing whatever the chained-ENV
//   timing switch says; later events of a chain always have larger offsets, so a product
//   still exists before its items arrive.
// - Apartments pass only the fields our add-new-apartment command takes.
// - Our own seeded generator (rng.ts): same distributions, not the same numbers.
import type { EnvEventsSettings } from '../contract/noise.js';
import { entryForAppName } from '../apps/registry.js';
import { NoiseRng } from './rng.js';
import { NOISE_EVENT_PREFIX } from '../contract/events.js';
import { undeferred } from '../contract/pyjson.js';

/** Horizon when the scenario declares no duration (reference default). */
export const DEFAULT_NOISE_HORIZON = 360;

/** Our CLI → the reference's canonical class, for weight_per_app_class. */
const CANONICAL_CLASS: Record<string, string> = {
  emails: 'EmailClientApp',
  messages: 'MessagingAppV2',
  chats: 'MessagingAppV2',
  'rent-a-flat': 'ApartmentListingApp',
  shopping: 'ShoppingApp',
  contacts: 'ContactsApp',
  calendar: 'CalendarApp',
  cabs: 'CabApp',
  'cloud-drive': 'SandboxLocalFileSystem',
};

const APARTMENT_FIELDS = new Set([
  'name', 'location', 'zip_code', 'price', 'number_of_bedrooms', 'number_of_bathrooms', 'square_footage',
  'property_type', 'furnished_status', 'floor_level', 'pet_policy', 'lease_term', 'amenities',
]);

/** One planned noise event: what the daemon runs, and when (seconds after the start event). */
export interface PlannedNoiseEvent {
  id: string;
  /** Scenario app name (routes the action). */
  app: string;
  className: string;
  fn: string;
  args: Record<string, unknown>;
  offset: number;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const values = (v: unknown): unknown[] => (Array.isArray(v) ? v : isObj(v) ? Object.values(v) : []);

interface UniverseApp {
  name: string;
  className: string;
  cli: string | null;
  state: Obj;
}

function universeApps(scenario: Obj): UniverseApp[] {
  const aug = isObj(scenario.augmentation_data) ? scenario.augmentation_data : null;
  const source = aug && Array.isArray(aug.apps) && aug.apps.length > 0 ? aug.apps : Array.isArray(scenario.apps) ? scenario.apps : [];
  // ENV actions are routed by the scenario's app names: use the scenario's name for a kind.
  const scenarioNames = new Map<string, string>();
  for (const a of Array.isArray(scenario.apps) ? scenario.apps : []) {
    if (!isObj(a) || typeof a.name !== 'string') continue;
    const cli = entryForAppName(a.name)?.cli ?? (typeof a.class_name === 'string' ? entryForAppName(a.class_name)?.cli : undefined);
    if (cli && !scenarioNames.has(cli)) scenarioNames.set(cli, a.name);
  }
  return source.flatMap((a): UniverseApp[] => {
    if (!isObj(a) || typeof a.name !== 'string') return [];
    const cls = typeof a.class_name === 'string' ? a.class_name : a.name;
    const cli = entryForAppName(a.name)?.cli ?? entryForAppName(cls)?.cli ?? null;
    const name = (cli && scenarioNames.get(cli)) ?? a.name;
    const state = undeferred(a.app_state);
    return [{ name, className: cls, cli, state: isObj(state) ? state : {} }];
  });
}

/** Reference get_num_env_events_per_app: int(weight / total weight × total) per app. */
function budgetPerApp(apps: UniverseApp[], total: number, weights: Record<string, number>): number[] {
  const w = apps.map((a) => (a.cli ? weights[CANONICAL_CLASS[a.cli] ?? ''] ?? 0 : 0));
  const sum = w.reduce((x, y) => x + y, 0);
  return w.map((x) => (sum > 0 ? Math.floor((x / sum) * total) : 0));
}

/** Offsets of `n` Poisson arrivals at `n / horizon` per second: cumulative exponential gaps. */
function arrivals(rng: NoiseRng, n: number, horizon: number): number[] {
  if (n <= 0 || horizon <= 0) return [];
  let t = 0;
  return Array.from({ length: n }, () => (t += rng.exponential(horizon / n)));
}

/** Plans the noise events of a scenario (raw JSON). Same scenario + settings → same plan. */
export function planNoiseEvents(scenario: unknown, s: EnvEventsSettings, durationSec: number | null): PlannedNoiseEvent[] {
  if (!isObj(scenario)) return [];
  const horizon = durationSec && durationSec > 0 ? durationSec : DEFAULT_NOISE_HORIZON;
  // Two streams, as the reference keeps one for sampling and one for timing.
  const pick = new NoiseRng(s.env_events_seed, 'sample');
  const time = new NoiseRng(s.env_events_seed, 'schedule');
  const apps = universeApps(scenario);
  const budget = budgetPerApp(apps, Math.floor((s.num_env_events_per_minute * horizon) / 60), s.weight_per_app_class);
  const out: PlannedNoiseEvent[] = [];
  const add = (a: UniverseApp, key: string, fn: string, args: Obj, offset: number): string => {
    const id = `${NOISE_EVENT_PREFIX}${key}`;
    out.push({ id, app: a.name, className: a.className, fn, args, offset });
    return id;
  };
  apps.forEach((a, k) => {
    const n = budget[k]!;
    if (a.cli === 'messages' || a.cli === 'chats') {
      // The reference's count is max(budget / per-conversation, all) capped at all: every conversation.
      const convs = pick.shuffle(values(a.state.conversations).filter(isObj));
      const ticks = arrivals(time, convs.length, horizon);
      for (const [i, conv] of convs.entries()) {
        const tick = ticks[i]!;
        if (tick > horizon) break;
        const msgs = values(conv.messages).filter(isObj);
        if (msgs.length === 0) continue;
        const m = Math.min(msgs.length, s.n_message_events_per_conversation);
        // m gaps at m / (horizon - tick) per second; the first message comes at the conversation's tick.
        const gaps = Array.from({ length: m }, () => time.exponential((horizon - tick) / m));
        let at = tick;
        msgs.slice(0, m).forEach((msg, j) => {
          if (j > 0) at += gaps[j - 1]!;
          add(a, `${a.name}_${String(conv.conversation_id)}_${j}`, 'create_and_add_message', { conversation_id: conv.conversation_id, sender_id: msg.sender_id ?? msg.sender, content: msg.content }, at);
        });
      }
    } else if (a.cli === 'emails') {
      const folders = isObj(a.state.folders) ? a.state.folders : {};
      const inbox = isObj(folders.INBOX) ? values(folders.INBOX.emails).filter(isObj) : [];
      pick.shuffle(inbox);
      const ticks = arrivals(time, Math.min(inbox.length, n), horizon);
      ticks.forEach((tick, i) => {
        const e = inbox[i]!;
        add(a, `email_${String(e.email_id)}`, 'create_and_add_email', { sender: e.sender, recipients: e.recipients, subject: e.subject, content: e.content, folder_name: 'INBOX' }, tick);
      });
    } else if (a.cli === 'shopping') {
      const products = values(a.state.products).filter(isObj);
      pick.shuffle(products);
      const ticks = arrivals(time, Math.min(products.length, Math.floor(n / s.n_item_events_per_product)), horizon);
      const itemAt = new Map<string, { id: string; at: number }>();
      ticks.forEach((tick, i) => {
        if (tick > horizon) return;
        const p = products[i]!;
        const pid = add(a, `shopping_product_${String(p.product_id)}`, 'add_product', { name: p.name }, tick);
        const items = values(p.variants).filter(isObj);
        const itemTicks = arrivals(time, Math.min(items.length, s.n_item_events_per_product), horizon - tick);
        itemTicks.forEach((it, j) => {
          const item = items[j]!;
          const id = add(a, `shopping_item_${String(item.item_id)}`, 'add_item_to_product', { product_id: `{{${pid}}}`, price: item.price, available: item.available, options: item.options }, tick + it);
          itemAt.set(String(item.item_id), { id, at: tick + it });
        });
      });
      const codes = isObj(a.state.discount_codes) ? a.state.discount_codes : {};
      for (const [itemId, perCode] of Object.entries(codes)) {
        // Drawn for every item, as the reference does, so the stream does not depend on which items were added.
        const delay = time.exponential(Math.floor(horizon / 2));
        const item = itemAt.get(itemId);
        if (!item || !isObj(perCode)) continue;
        for (const [code, value] of Object.entries(perCode))
          add(a, `shopping_discount_code_${itemId}_${code}`, 'add_discount_code', { item_id: `{{${item.id}}}`, discount_code: { [code]: Number(value) } }, item.at + delay);
      }
    } else if (a.cli === 'rent-a-flat') {
      const flats = values(a.state.apartments).filter(isObj);
      pick.shuffle(flats);
      const ticks = arrivals(time, Math.min(flats.length, n), horizon);
      ticks.forEach((tick, i) => {
        const f = flats[i]!;
        const args: Obj = { ...f, number_of_bedrooms: f.bedrooms, number_of_bathrooms: f.bathrooms, price: Number(f.price) };
        for (const key of Object.keys(args)) if (!APARTMENT_FIELDS.has(key)) delete args[key];
        add(a, `apartment_${i}`, 'add_new_apartment', args, tick);
      });
    }
  });
  return out;
}
