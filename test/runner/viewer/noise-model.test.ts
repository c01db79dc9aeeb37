// noise.jsonl on the trace model: failures placed among the event lines, the summary counts.
import { describe, expect, it } from 'vitest';
import type { EventLine } from '@gaia2/contract/events';
import { noiseView } from '../../../runner/src/viewer/model/noise.js';
import { eventItems, withFailures } from '../../../runner/src/viewer/model/timeline.js';

const line = (t: number, fn: string, event_id?: string): EventLine => ({ t, app: 'ShoppingApp', fn, args: {}, w: true, ret: null, sim_t: '2025-10-09 09:00:0' + (t - 1760000400), ...(event_id ? { event_id } : {}) });
const events = [line(1760000400, 'list_all_products'), line(1760000401, 'add_product', 'env_expansion_shopping_product_p1'), line(1760000402, 'add_to_cart')];
const settings = { kind: 'settings', settings: { tool_augmentation: { tool_failure_probability: 0.1, seed: 3 }, env_events: null } };
const failure = (over: Record<string, unknown>) => ({ kind: 'tool_failure', sim_t: '2025-10-09 09:00:01', tool: 'Shopping__add_to_cart', argv: ['shopping', 'add-to-cart'], message: 'Calling Shopping__add_to_cart failed', ...over });

describe('noise on the trace model', () => {
  it('a failure goes after the lines written before it; without that count, after its sim second', () => {
    const order = (rec: Record<string, unknown>) => withFailures(eventItems(events), noiseView([settings, rec], events).failures).map((x) => (x.k === 'failure' ? 'FAIL' : x.fn));
    expect(order(failure({ events_before: 1 }))).toEqual(['list_all_products', 'FAIL', 'add_product', 'add_to_cart']);
    expect(order(failure({}))).toEqual(['list_all_products', 'add_product', 'FAIL', 'add_to_cart']);
    expect(order(failure({ events_before: 99 }))).toEqual(['list_all_products', 'add_product', 'add_to_cart', 'FAIL']);
  });

  it('summary: settings, planned and fired background events, failures; noise events flagged', () => {
    const v = noiseView([settings, { kind: 'env_event', event_id: 'env_expansion_shopping_product_p1' }, { kind: 'env_event', event_id: 'env_expansion_x' }, failure({ events_before: 0 })], events);
    expect(v.summary).toEqual({ toolFailureProbability: 0.1, toolSeed: 3, eventsPerMinute: null, eventsSeed: null, planned: 2, fired: 1, failures: 1 });
    expect(eventItems(events).map((e) => e.noise ?? false)).toEqual([false, true, false]);
    expect(noiseView([], events)).toEqual({ failures: [], summary: null });
  });
});
