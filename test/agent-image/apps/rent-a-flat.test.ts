import { beforeEach, describe, expect, it } from 'vitest';
import { errText, testWorld, type TestWorld } from './rest-world.js';

const STATE = `{"saved_apartments": ["a1"], "apartments": {
 "a1": {"name": "Cozy Condo Downtown", "location": "Downtown", "zip_code": "10001", "price": 2500.0, "bedrooms": 2,
        "bathrooms": 1, "property_type": "Condo", "square_footage": 900, "furnished_status": "Furnished",
        "floor_level": "Upper floors", "pet_policy": "No pets", "lease_term": "1 year", "apartment_id": "a1",
        "amenities": ["Pool", "Laundry"], "saved": true},
 "a2": {"name": "Garden House", "location": "Suburbs", "zip_code": "10002", "price": 1800, "bedrooms": 3,
        "bathrooms": 2, "property_type": "House", "square_footage": 1400, "pet_policy": "",
        "amenities": ["Garden", "Laundry", "Salon"], "agent": "dropped"},
 "a3": {"name": "Tiny Studio", "location": "downtown east", "zip_code": "10001", "price": 3100.0, "bedrooms": 0,
        "bathrooms": 1, "property_type": "Studio", "square_footage": 300, "pet_policy": "Cats allowed"}}}`;

let w: TestWorld;
beforeEach(async () => {
  w = await testWorld([{ name: 'RentAFlat', class_name: 'RentAFlat', app_state: STATE }]);
});

const ids = (r: { json: unknown }): string[] => Object.keys((r.json as { data: object }).data);

describe('rent-a-flat reads', () => {
  it('lists every apartment normalised to the 15 fields (defaults filled, unknown keys dropped)', async () => {
    const r = await w.run(['rent-a-flat', 'list-all-apartments']);
    expect(r.exitCode).toBe(0);
    expect(ids(r)).toEqual(['a1', 'a2', 'a3']);
    const a2 = (r.json as { data: Record<string, Record<string, unknown>> }).data.a2!;
    expect(Object.keys(a2)).toHaveLength(15);
    expect(a2).toMatchObject({ furnished_status: '', floor_level: '', lease_term: '', apartment_id: 'a2', saved: false });
    expect(a2).not.toHaveProperty('agent');
    expect(r.stdout).toContain('"price": 1800,'); // an int price stays an int
    expect(r.lines[0]).toContain('"app": "RentAFlat", "fn": "list_all_apartments", "args": {}, "w": false');
  });

  it('gets details, and fails for an unknown id without logging', async () => {
    const ok = await w.run(['rent-a-flat', 'get-apartment-details', '--apartment-id', 'a3']);
    expect((ok.json as { data: { apartment_id: string } }).data.apartment_id).toBe('a3');
    const bad = await w.run(['rent-a-flat', 'get-apartment-details', '--apartment-id', 'zz']);
    expect([bad.exitCode, errText(bad), bad.events.length]).toEqual([1, 'Apartment does not exist', 0]);
  });

  it('lists saved apartments in saved-list order', async () => {
    const r = await w.run(['rent-a-flat', 'list-saved-apartments']);
    expect(ids(r)).toEqual(['a1']);
  });

  it('needs --apartment-id (usage error, exit 2)', async () => {
    const r = await w.run(['rent-a-flat', 'get-apartment-details']);
    expect(r.exitCode).toBe(2);
    expect(errText(r)).toMatch(/Error: Missing option '--apartment-id'\.$/);
  });
});

describe('rent-a-flat search', () => {
  const search = async (...args: string[]) => w.run(['rent-a-flat', 'search-apartments', ...args]);

  it('matches location case-insensitively and price bounds inclusively', async () => {
    expect(ids(await search('--location', 'DOWNTOWN'))).toEqual(['a1', 'a3']);
    expect(ids(await search('--min-price', '2000', '--max-price', '3000'))).toEqual(['a1']);
    expect(ids(await search('--max-price', '2500'))).toEqual(['a1', 'a2']);
  });

  it('requires every amenity, from JSON or comma-separated text', async () => {
    expect(ids(await search('--amenities', '["laundry","salon"]'))).toEqual(['a2']);
    expect(ids(await search('--amenities', 'Laundry, pool'))).toEqual(['a1']);
  });

  it('ignores pet/furnished/lease filters for apartments that leave them empty', async () => {
    expect(ids(await search('--pet-policy', 'no Pets'))).toEqual(['a1', 'a2']);
  });

  it('filters exact zip, bedrooms, minimum square footage, property type and name substring', async () => {
    expect(ids(await search('--zip-code', '10001', '--number-of-bedrooms', '2'))).toEqual(['a1']);
    expect(ids(await search('--square-footage', '901'))).toEqual(['a2']);
    expect(ids(await search('--property-type', 'studio'))).toEqual(['a3']);
    expect(ids(await search('--name', 'cozy condo'))).toEqual(['a1']);
  });

  it('logs all 15 parameters, parsed, and restricts to saved apartments with --saved-only', async () => {
    const r = await search('--saved-only', '--location', 'down', '--max-price', '3000', '--amenities', 'pool');
    expect(ids(r)).toEqual(['a1']);
    const args = JSON.parse(r.lines[0]!).args as Record<string, unknown>;
    expect(Object.keys(args)).toHaveLength(15);
    expect(args).toMatchObject({ location: 'down', max_price: 3000, amenities: ['pool'], saved_only: true, name: null });
    expect(r.lines[0]).toContain('"max_price": 3000.0');
  });

  it('rejects a non-numeric price and unknown options as usage errors', async () => {
    const bad = await search('--max-price', 'lots');
    expect([bad.exitCode, bad.events.length]).toEqual([2, 0]);
    expect(errText(bad)).toContain("Error: Invalid value for '--max-price': 'lots' is not a valid float.");
    expect((await search('--pets')).exitCode).toBe(2);
  });
});

describe('rent-a-flat favourites', () => {
  it('saves idempotently, persists the list and logs a write each time', async () => {
    for (let i = 0; i < 2; i++) {
      const r = await w.run(['rent-a-flat', 'save-apartment', '--apartment-id', 'a2']);
      expect(r.json).toEqual({ status: 'success', message: 'Successfully saved apartment' });
      expect(r.lines[0]).toContain('"fn": "save_apartment", "args": {"apartment_id": "a2"}, "w": true, "ret": null');
    }
    expect(w.state('rent_a_flat.json').saved_apartments).toEqual(['a1', 'a2']);
    const missing = await w.run(['rent-a-flat', 'save-apartment', '--apartment-id', 'nope']);
    expect([missing.exitCode, errText(missing)]).toEqual([1, 'Apartment does not exist']);
  });

  it('removes a saved apartment, then refuses a second removal', async () => {
    const r = await w.run(['rent-a-flat', 'remove-saved-apartment', '--apartment-id', 'a1']);
    expect(r.json).toEqual({ status: 'success', message: 'Successfully removed apartment from favorites' });
    expect(w.state('rent_a_flat.json').saved_apartments).toEqual([]);
    const again = await w.run(['rent-a-flat', 'remove-saved-apartment', '--apartment-id', 'a1']);
    expect([again.exitCode, errText(again)]).toEqual([1, 'Apartment not in saved list']);
  });
});

describe('rent-a-flat ENV commands', () => {
  it('adds an apartment with a fresh id and logs the 13 ARE parameters', async () => {
    const r = await w.run(
      ['rent-a-flat', 'add-new-apartment', '--name', 'Loft', '--location', 'Docks', '--zip-code', '10003', '--price', '2000',
        '--number-of-bedrooms', '1', '--number-of-bathrooms', '1', '--square-footage', '700', '--amenities', '["Gym"]'],
      { eventId: 'Event-ENV-1' },
    );
    const id = w.ids[0]!;
    expect(r.json).toEqual({ status: 'success', apartment_id: id });
    const line = JSON.parse(r.lines[0]!);
    expect(Object.keys(line.args)).toHaveLength(13);
    expect(line).toMatchObject({ fn: 'add_new_apartment', w: true, ret: id, event_id: 'Event-ENV-1' });
    expect(r.lines[0]).toContain('"price": 2000.0');
    const details = await w.run(['rent-a-flat', 'get-apartment-details', '--apartment-id', id]);
    expect((details.json as { data: Record<string, unknown> }).data).toMatchObject({ bedrooms: 1, amenities: ['Gym'], property_type: '' });
  });

  it('updates the price and deletes (also from the saved list); unknown ids fail', async () => {
    const up = await w.action('RentAFlat', 'update_apartment', { apartment_id: 'a1', new_price: 2400 });
    expect(up.json).toEqual({ status: 'success', apartment_id: 'a1' });
    expect(up.lines[0]).toContain('"args": {"apartment_id": "a1", "new_price": 2400.0}');
    const del = await w.action('RentAFlat', 'delete_apartment', { apartment_id: 'a1' });
    expect(JSON.parse(del.lines[0]!).ret).toBe('a1');
    expect(w.state('rent_a_flat.json')).toMatchObject({ saved_apartments: [] });
    const gone = await w.action('RentAFlat', 'delete_apartment', { apartment_id: 'a1' });
    expect([gone.exitCode, errText(gone)]).toEqual([1, 'Apartment does not exist.']);
    const up2 = await w.action('RentAFlat', 'update_apartment', { apartment_id: 'a1', new_price: 1 });
    expect(errText(up2)).toBe('Apartment does not exist');
  });
});

describe('rent-a-flat bad state', () => {
  it('names the file and field instead of crashing', async () => {
    const bad = await testWorld([{ name: 'RentAFlat', app_state: { apartments: { x: { name: 'No price' } } } }]);
    const r = await bad.run(['rent-a-flat', 'list-all-apartments']);
    expect(r.exitCode).toBe(1);
    expect(errText(r)).toBe('rent_a_flat.json: apartments["x"] is missing "location"');
  });
});
