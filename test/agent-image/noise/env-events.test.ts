// Background ENV noise planned from a scenario's universe data: budget, Poisson timing,
// reproducibility per seed, and the scenario expansion the daemon runs.
import { describe, expect, it } from 'vitest';
import { DEFAULT_ENV_EVENTS, type EnvEventsSettings } from '../../../agent-image/src/contract/noise.js';
import { expandWithNoiseEvents, NOISE_EVENT_PREFIX, planNoiseEvents } from '../../../agent-image/src/noise/index.js';
import { loadScenario } from '../../../agent-image/src/scenario/index.js';
import { readGolden } from '../world/golden.js';

const EMAIL = 'scenarios/ambiguity/ambig_email_forward_invoice.json';
const SHOP = 'scenarios/time/time_shopping_price_drop.json';
const CHATS = 'scenarios/adaptability/adapt_chats_kenji_sync.json';
const FLAT = 'scenarios/search/search_flat_safest_two_bed.json';
const sc = (rel: string) => JSON.parse(readGolden(rel)) as Record<string, any>;
const settings = (over: Partial<EnvEventsSettings> = {}): EnvEventsSettings => ({ ...DEFAULT_ENV_EVENTS, ...over });

describe('planNoiseEvents', () => {
  it('emails: min(inbox size, budget) arrivals, inbox emails re-sent, inside the horizon on average', () => {
    const s = sc(EMAIL);
    const inbox = s.apps.find((a: any) => a.name === 'Emails').app_state.folders.INBOX.emails;
    const duration = s.metadata.definition.duration;
    const planned = planNoiseEvents(s, settings(), duration);
    // One weighted app: the whole budget of 10/min × duration goes to Emails.
    expect(planned).toHaveLength(Math.min(inbox.length, Math.floor((10 * duration) / 60)));
    for (const p of planned) {
      expect(p.id.startsWith(`${NOISE_EVENT_PREFIX}email_`)).toBe(true);
      expect(p.fn).toBe('create_and_add_email');
      expect(p.app).toBe('Emails');
      expect(inbox.map((e: any) => e.subject)).toContain(p.args.subject);
    }
    const offsets = planned.map((p) => p.offset);
    expect([...offsets].sort((a, b) => a - b)).toEqual(offsets); // cumulative arrivals
  });

  it('a zero budget (rate 0) plans nothing', () => {
    expect(planNoiseEvents(sc(EMAIL), settings({ num_env_events_per_minute: 0 }), 1800)).toEqual([]);
  });

  it('a zero weight for the class plans nothing for that app', () => {
    expect(planNoiseEvents(sc(EMAIL), settings({ weight_per_app_class: { EmailClientApp: 0, ShoppingApp: 1 } }), 1800)).toEqual([]);
  });

  it('messaging: every conversation, at most n messages each, chained after the conversation tick', () => {
    const s = sc(CHATS);
    const convs = Object.values(s.apps.find((a: any) => a.name === 'Chats').app_state.conversations) as any[];
    const planned = planNoiseEvents(s, settings({ n_message_events_per_conversation: 2 }), 3600);
    const per = new Map<string, number[]>();
    for (const p of planned) {
      expect(p.fn).toBe('create_and_add_message');
      per.set(String(p.args.conversation_id), [...(per.get(String(p.args.conversation_id)) ?? []), p.offset]);
    }
    expect(per.size).toBeGreaterThan(0);
    expect(per.size).toBeLessThanOrEqual(convs.length);
    for (const [id, offs] of per) {
      const conv = convs.find((c) => c.conversation_id === id);
      expect(offs.length).toBe(Math.min(2, conv.messages.length));
      expect([...offs].sort((a, b) => a - b)).toEqual(offs);
    }
  });

  it('shopping: product, then its items referring to the product event, then discount codes of added items', () => {
    const planned = planNoiseEvents(sc(SHOP), settings({ num_env_events_per_minute: 60 }), 1800);
    const products = planned.filter((p) => p.fn === 'add_product');
    expect(products.length).toBeGreaterThan(0);
    for (const item of planned.filter((p) => p.fn === 'add_item_to_product')) {
      const ref = /^\{\{(.+)\}\}$/.exec(String(item.args.product_id))![1];
      const product = planned.find((p) => p.id === ref)!;
      expect(product.fn).toBe('add_product');
      expect(item.offset).toBeGreaterThan(product.offset);
    }
    for (const d of planned.filter((p) => p.fn === 'add_discount_code')) {
      const ref = /^\{\{(.+)\}\}$/.exec(String(d.args.item_id))![1];
      expect(planned.find((p) => p.id === ref)?.fn).toBe('add_item_to_product');
    }
  });

  it('apartments: bedrooms/bathrooms renamed, id dropped, only add-new-apartment fields', () => {
    const planned = planNoiseEvents(sc(FLAT), settings(), 1800);
    expect(planned.length).toBeGreaterThan(0);
    for (const p of planned) {
      expect(p.fn).toBe('add_new_apartment');
      expect(p.args).toHaveProperty('number_of_bedrooms');
      expect(p.args).not.toHaveProperty('bedrooms');
      expect(p.args).not.toHaveProperty('apartment_id');
      expect(p.args).not.toHaveProperty('saved');
    }
  });

  it('uses augmentation_data.apps as the universe when the scenario carries it', () => {
    const s = sc(EMAIL);
    const other = { name: 'Emails', class_name: 'EmailClientV2', app_state: { folders: { INBOX: { emails: [{ email_id: 'u1', sender: 'noise@example.com', recipients: ['x@example.com'], subject: 'Universe mail', content: 'hi' }] } } } };
    const planned = planNoiseEvents({ ...s, augmentation_data: { apps: [other] } }, settings(), 1800);
    expect(planned).toHaveLength(1);
    expect(planned[0]!.args.subject).toBe('Universe mail');
  });
});

describe('reproducibility', () => {
  it('same seed → byte-identical expanded scenario; another seed → different noise', () => {
    const a = JSON.stringify(expandWithNoiseEvents(sc(SHOP), settings({ env_events_seed: 7, num_env_events_per_minute: 30 })).scenario);
    const b = JSON.stringify(expandWithNoiseEvents(sc(SHOP), settings({ env_events_seed: 7, num_env_events_per_minute: 30 })).scenario);
    const c = JSON.stringify(expandWithNoiseEvents(sc(SHOP), settings({ env_events_seed: 8, num_env_events_per_minute: 30 })).scenario);
    expect(a).toBe(b);
    expect(c).not.toBe(a);
  });
});

describe('expandWithNoiseEvents', () => {
  it('appends ENV events after the original ones, depending on the start event, and the scenario still loads', () => {
    const s = sc(EMAIL);
    const { scenario, planned } = expandWithNoiseEvents(s, settings());
    const events = scenario.events as any[];
    expect(events.slice(0, s.events.length)).toEqual(s.events);
    const added = events.slice(s.events.length);
    expect(added.map((e) => e.event_id)).toEqual(planned.map((p) => p.id));
    for (const e of added) {
      expect(e.event_type).toBe('ENV');
      expect(e.dependencies).toEqual([s.events[0].event_id]);
      expect(e.action.args.find((x: any) => x.name === 'recipients').value_type).toBe('list');
    }
    const loaded = loadScenario(scenario, 'expanded');
    expect(loaded.envEvents.length).toBe(s.events.filter((e: any) => e.event_type === 'ENV').length + added.length);
    expect(loaded.oracleEvents.length).toBe(s.events.filter((e: any) => e.event_type === 'AGENT').length);
    expect(s.events.length).toBe(JSON.parse(readGolden(EMAIL)).events.length); // input untouched
  });

  it('without a dependency-free USER/ENV first event, noise starts with the scenario clock', () => {
    const s = sc(EMAIL);
    const first = { ...s.events[0], event_type: 'AGENT' };
    const { scenario } = expandWithNoiseEvents({ ...s, events: [first, ...s.events.slice(1)] }, settings());
    const added = (scenario.events as any[]).slice(s.events.length);
    expect(added.length).toBeGreaterThan(0);
    for (const e of added) expect(e.dependencies).toEqual([]);
  });
});
