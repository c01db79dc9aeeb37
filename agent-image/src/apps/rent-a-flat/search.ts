// search-apartments filtering: AND of every given filter; numeric filters skipped when 0;
// text filters case-insensitive; furnished/pet/lease ignored for apartments that leave them empty.
import { num } from '../../contract/pyjson.js';
import type { Apartment } from './state.js';

export interface FlatSearch {
  name: string | null;
  location: string | null;
  zip_code: string | null;
  min_price: unknown;
  max_price: unknown;
  number_of_bedrooms: number | null;
  number_of_bathrooms: number | null;
  property_type: string | null;
  square_footage: number | null;
  furnished_status: string | null;
  floor_level: string | null;
  pet_policy: string | null;
  lease_term: string | null;
  amenities: string[] | null;
}

/** --amenities: a JSON value when it parses, else a comma-separated list (items stripped). */
export function parseAmenities(raw: string | null, parseJson: (t: string) => unknown): unknown {
  if (raw === null) return null;
  try {
    return parseJson(raw);
  } catch {
    return raw.split(',').map((a) => a.trim());
  }
}

const lower = (v: unknown): string => String(v ?? '').toLowerCase();
const truthy = (v: unknown): boolean => v !== null && v !== undefined && v !== '' && num(v) !== 0;

export function matches(apt: Apartment, f: FlatSearch): boolean {
  const price = num(apt.price);
  if (truthy(f.min_price) && price < num(f.min_price)) return false;
  if (truthy(f.max_price) && price > num(f.max_price)) return false;
  if (truthy(f.number_of_bedrooms) && num(apt.bedrooms) !== f.number_of_bedrooms) return false;
  if (truthy(f.number_of_bathrooms) && num(apt.bathrooms) !== f.number_of_bathrooms) return false;
  if (truthy(f.square_footage) && num(apt.square_footage) < f.square_footage!) return false;
  if (f.zip_code && apt.zip_code !== f.zip_code) return false;
  if (f.floor_level && apt.floor_level !== f.floor_level) return false;
  if (f.name && !lower(apt.name).includes(f.name.toLowerCase())) return false;
  if (f.location && !lower(apt.location).includes(f.location.toLowerCase())) return false;
  if (f.property_type && lower(apt.property_type) !== f.property_type.toLowerCase()) return false;
  for (const key of ['furnished_status', 'pet_policy', 'lease_term'] as const) {
    const want = f[key];
    if (want && apt[key] && lower(apt[key]) !== want.toLowerCase()) return false;
  }
  if (f.amenities && f.amenities.length > 0) {
    const have = (Array.isArray(apt.amenities) ? apt.amenities : []).map(lower);
    if (!f.amenities.every((a) => have.includes(lower(a)))) return false;
  }
  return true;
}
