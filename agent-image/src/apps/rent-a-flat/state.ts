// rent_a_flat.json: apartments keyed by id plus the saved (favourites) list. Every load
// normalises apartments the way the reference's dataclass does: the key is the id, unknown
// fields are dropped, optional ones defaulted, and `saved` is set for listed ids.
import { fail } from '../framework/errors.js';
import { isRecord } from '../framework/json-shapes.js';

export type Apartment = Record<string, unknown> & { apartment_id: string };

const REQUIRED = ['name', 'location', 'zip_code', 'price', 'bedrooms', 'bathrooms', 'property_type', 'square_footage'];
/** Optional fields, in output order after the required ones, with their defaults. */
const OPTIONAL: Array<[string, () => unknown]> = [
  ['furnished_status', () => ''],
  ['floor_level', () => ''],
  ['pet_policy', () => ''],
  ['lease_term', () => ''],
  ['apartment_id', () => ''],
  ['amenities', () => []],
  ['saved', () => false],
];

export interface FlatState {
  apartments: Record<string, Apartment>;
  saved: string[];
}


export function toApartment(id: string, raw: unknown): Apartment {
  if (!isRecord(raw)) return fail(`rent_a_flat.json: apartments["${id}"] is not an object`);
  const src: Record<string, unknown> = { ...raw, apartment_id: id };
  const apt: Record<string, unknown> = {};
  for (const k of REQUIRED) {
    if (!Object.hasOwn(src, k)) fail(`rent_a_flat.json: apartments["${id}"] is missing "${k}"`);
    apt[k] = src[k];
  }
  for (const [k, dflt] of OPTIONAL) apt[k] = Object.hasOwn(src, k) ? src[k] : dflt();
  return apt as Apartment;
}

export function loadFlatState(raw: Record<string, unknown>): FlatState {
  const list = raw.apartments ?? {};
  if (!isRecord(list)) fail('rent_a_flat.json: "apartments" is not an object');
  const apartments: Record<string, Apartment> = {};
  for (const [id, a] of Object.entries(list as Record<string, unknown>)) apartments[id] = toApartment(id, a);
  const saved = raw.saved_apartments ?? [];
  if (!Array.isArray(saved) || saved.some((s) => typeof s !== 'string')) {
    fail('rent_a_flat.json: "saved_apartments" is not a list of ids');
  }
  for (const id of saved as string[]) if (Object.hasOwn(apartments, id)) apartments[id]!.saved = true;
  return { apartments, saved: [...(saved as string[])] };
}

export const dumpFlatState = (s: FlatState): Record<string, unknown> => ({
  apartments: s.apartments,
  saved_apartments: s.saved,
});

/** A saved id whose apartment is gone: the reference crashes (KeyError); we name the id. */
export function savedApartment(s: FlatState, id: string): Apartment {
  const apt = s.apartments[id];
  if (!apt || !Object.hasOwn(s.apartments, id)) fail(`Saved apartment ${id} no longer exists in the listings`);
  return apt as Apartment;
}
