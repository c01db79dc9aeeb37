// The `rent-a-flat` CLI (reference RentAFlat / ARE ApartmentListingApp), with the hidden ENV
// commands add-new-apartment, update-apartment and delete-apartment.
import { PyFloat, parsePyJson } from '../../contract/pyjson.js';
import { fail } from '../framework/errors.js';
import { opt } from '../framework/options.js';
import type { AppContext, AppDef, CommandDef, OptionDef } from '../framework/types.js';
import { matches, parseAmenities, type FlatSearch } from './search.js';
import { viewOf } from '../framework/state-views.js';
import { dumpFlatState, loadFlatState, savedApartment, toApartment, type Apartment, type FlatState } from './state.js';


const APARTMENT_ID = opt('apartment_id', 'Apartment ID to look up', { required: true });
// The normalised apartments are built once per stored state; every write stores a new one
// (dumpFlatState), so a view is never seen again once a command changed it.
const load = (ctx: AppContext): FlatState => {
  const raw = ctx.loadState() ?? {};
  return viewOf(raw, 'flats', () => loadFlatState(raw));
};

function existing(s: FlatState, id: string, message = 'Apartment does not exist'): Apartment {
  if (!Object.hasOwn(s.apartments, id)) fail(message);
  return s.apartments[id]!;
}

/** The parsed --amenities as the list the filter uses (a JSON string iterates per character, a dict per key, as in Python). */
function amenityList(parsed: unknown): string[] | null {
  if (parsed === null) return null;
  if (typeof parsed === 'string') return Array.from(parsed);
  if (Array.isArray(parsed) && parsed.every((a) => typeof a === 'string')) return parsed as string[];
  if (Array.isArray(parsed) && parsed.length === 0) return [];
  if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) && !(parsed instanceof PyFloat)) return Object.keys(parsed);
  return fail('--amenities must be a JSON list of strings or a comma-separated list');
}

const SEARCH_OPTIONS: OptionDef[] = [
  opt('name', 'Name of the apartment'),
  opt('location', 'Desired location'),
  opt('zip_code', 'Zip code of the location'),
  opt('min_price', 'Minimum price', { type: 'float' }),
  opt('max_price', 'Maximum price', { type: 'float' }),
  opt('number_of_bedrooms', 'Number of bedrooms', { type: 'integer' }),
  opt('number_of_bathrooms', 'Number of bathrooms', { type: 'integer' }),
  opt('property_type', 'Type of property (Apartment, Condo, House, Studio)'),
  opt('square_footage', 'Minimum square footage', { type: 'integer' }),
  opt('furnished_status', 'Furnished, Unfurnished, or Semi-furnished'),
  opt('floor_level', 'Ground floor, Upper floors, Penthouse, Basement'),
  opt('pet_policy', 'Pets allowed, No pets, Cats allowed, Dogs allowed'),
  opt('lease_term', 'Month-to-month, 6 months, 1 year, Long term lease'),
  opt('amenities', 'Comma-separated list of desired amenities, or JSON array'),
  opt('saved_only', 'Search only saved apartments', { type: 'flag' }),
];

const visible: CommandDef[] = [
  {
    name: 'list-all-apartments',
    fn: 'list_all_apartments',
    write: false,
    help: 'List all apartments in the catalog.',
    options: [],
    run(_o, ctx) {
      const data = load(ctx).apartments;
      return { output: { status: 'success', data }, args: {}, ret: data };
    },
  },
  {
    name: 'get-apartment-details',
    fn: 'get_apartment_details',
    write: false,
    help: 'Get apartment details for a given apartment id.',
    options: [APARTMENT_ID],
    run(o, ctx) {
      const apt = existing(load(ctx), o.apartment_id as string);
      return { output: { status: 'success', data: apt }, args: { apartment_id: o.apartment_id }, ret: apt };
    },
  },
  {
    name: 'save-apartment',
    fn: 'save_apartment',
    write: true,
    help: 'Save an apartment to favorites.',
    options: [{ ...APARTMENT_ID, help: 'Apartment ID to save to favorites' }],
    run(o, ctx) {
      const s = load(ctx);
      const id = o.apartment_id as string;
      const apt = existing(s, id);
      if (!s.saved.includes(id)) {
        s.saved.push(id);
        apt.saved = true;
      }
      ctx.saveState(dumpFlatState(s));
      return { output: { status: 'success', message: 'Successfully saved apartment' }, args: { apartment_id: id }, ret: null };
    },
  },
  {
    name: 'remove-saved-apartment',
    fn: 'remove_saved_apartment',
    write: true,
    help: 'Remove an apartment from favorites.',
    options: [{ ...APARTMENT_ID, help: 'Apartment ID to remove from favorites' }],
    run(o, ctx) {
      const s = load(ctx);
      const id = o.apartment_id as string;
      if (!s.saved.includes(id)) fail('Apartment not in saved list');
      const apt = savedApartment(s, id);
      s.saved.splice(s.saved.indexOf(id), 1);
      apt.saved = false;
      ctx.saveState(dumpFlatState(s));
      const output = { status: 'success', message: 'Successfully removed apartment from favorites' };
      return { output, args: { apartment_id: id }, ret: null };
    },
  },
  {
    name: 'list-saved-apartments',
    fn: 'list_saved_apartments',
    write: false,
    help: 'List apartments saved to favorites.',
    options: [],
    run(_o, ctx) {
      const s = load(ctx);
      const data: Record<string, Apartment> = {};
      for (const id of s.saved) data[id] = savedApartment(s, id);
      return { output: { status: 'success', data }, args: {}, ret: data };
    },
  },
  {
    name: 'search-apartments',
    fn: 'search_apartments',
    write: false,
    help: 'Search for apartments based on multiple filters.',
    options: SEARCH_OPTIONS,
    run(o, ctx) {
      const s = load(ctx);
      const amenities = parseAmenities((o.amenities as string | null) ?? null, parsePyJson);
      const filter = { ...(o as unknown as FlatSearch), amenities: amenityList(amenities) };
      const pool: Record<string, Apartment> = {};
      if (o.saved_only) for (const id of s.saved) pool[id] = savedApartment(s, id);
      const data: Record<string, Apartment> = {};
      for (const [id, apt] of Object.entries(o.saved_only ? pool : s.apartments)) if (matches(apt, filter)) data[id] = apt;
      const args: Record<string, unknown> = {};
      for (const def of SEARCH_OPTIONS) args[def.name] = def.name === 'amenities' ? amenities : o[def.name] ?? null;
      args.saved_only = o.saved_only === true;
      return { output: { status: 'success', data }, args, ret: data };
    },
  },
];

const req = { required: true };
const hidden: CommandDef[] = [
  {
    name: 'add-new-apartment',
    fn: 'add_new_apartment',
    write: true,
    hidden: true,
    help: '[ENV] Add a new apartment listing.',
    options: [
      opt('name', 'Apartment name.', req),
      opt('location', 'Location.', req),
      opt('zip_code', 'Zip code.', req),
      opt('price', 'Monthly price.', { type: 'float', ...req }),
      opt('number_of_bedrooms', 'Number of bedrooms.', { type: 'integer', ...req }),
      opt('number_of_bathrooms', 'Number of bathrooms.', { type: 'integer', ...req }),
      opt('square_footage', 'Square footage.', { type: 'integer', ...req }),
      opt('property_type', 'Property type.', { default: '' }),
      opt('furnished_status', 'Furnished status.', { default: '' }),
      opt('floor_level', 'Floor level.', { default: '' }),
      opt('pet_policy', 'Pet policy.', { default: '' }),
      opt('lease_term', 'Lease term.', { default: '' }),
      opt('amenities', 'JSON list of amenities.'),
    ],
    run(o, ctx) {
      let amenities: unknown = [];
      if (o.amenities) {
        try {
          amenities = parsePyJson(o.amenities as string);
        } catch {
          amenities = [];
        }
      }
      const s = load(ctx);
      const id = ctx.newId();
      s.apartments[id] = toApartment(id, {
        name: o.name,
        location: o.location,
        zip_code: o.zip_code,
        price: o.price,
        bedrooms: o.number_of_bedrooms,
        bathrooms: o.number_of_bathrooms,
        property_type: o.property_type,
        square_footage: o.square_footage,
        furnished_status: o.furnished_status,
        floor_level: o.floor_level,
        pet_policy: o.pet_policy,
        lease_term: o.lease_term,
        amenities,
      });
      ctx.saveState(dumpFlatState(s));
      const args: Record<string, unknown> = {};
      for (const k of ['name', 'location', 'zip_code', 'price', 'number_of_bedrooms', 'number_of_bathrooms', 'square_footage',
        'property_type', 'furnished_status', 'floor_level', 'pet_policy', 'lease_term']) args[k] = o[k];
      args.amenities = amenities;
      return { output: { status: 'success', apartment_id: id }, args, ret: id };
    },
  },
  {
    name: 'update-apartment',
    fn: 'update_apartment',
    write: true,
    hidden: true,
    help: '[ENV] Update an apartment price.',
    options: [{ ...APARTMENT_ID, help: 'Apartment ID to update.' }, opt('new_price', 'New price.', { type: 'float', ...req })],
    run(o, ctx) {
      const s = load(ctx);
      const id = o.apartment_id as string;
      existing(s, id).price = o.new_price;
      ctx.saveState(dumpFlatState(s));
      return { output: { status: 'success', apartment_id: id }, args: { apartment_id: id, new_price: o.new_price }, ret: id };
    },
  },
  {
    name: 'delete-apartment',
    fn: 'delete_apartment',
    write: true,
    hidden: true,
    help: '[ENV] Delete an apartment listing.',
    options: [{ ...APARTMENT_ID, help: 'Apartment ID to delete.' }],
    run(o, ctx) {
      const s = load(ctx);
      const id = o.apartment_id as string;
      existing(s, id, 'Apartment does not exist.');
      delete s.apartments[id];
      if (s.saved.includes(id)) s.saved.splice(s.saved.indexOf(id), 1);
      ctx.saveState(dumpFlatState(s));
      return { output: { status: 'success', apartment_id: id }, args: { apartment_id: id }, ret: id };
    },
  },
];

export const rentAFlatApp: AppDef = {
  cli: 'rent-a-flat',
  stateName: 'RentAFlat',
  help: 'RentAFlat - apartment listing app.',
  commands: [...visible, ...hidden],
};
