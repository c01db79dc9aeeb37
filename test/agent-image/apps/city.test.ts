import { describe, expect, it } from 'vitest';
import { errText, testWorld } from './rest-world.js';

const DATA = { '12345': { violent_crime: 0.5, property_crime: 0.3 } };
const city = (extra: Record<string, unknown> = {}) =>
  testWorld([{ name: 'City', class_name: 'CityApp', app_state: { crime_data: DATA, ...extra } }]);
const LIMIT_MSG = (n: number) => `Free version only supports ${n} API calls. Please try again after 30 minutes or upgrade to pro-version.`;

describe('city', () => {
  it('returns crime data, counts the call, and logs exactly the zip code', async () => {
    const w = await city({ api_call_count: 5 });
    const r = await w.run(['city', 'get-crime-rate', '--zip-code', '12345']);
    expect(r.json).toEqual({ status: 'success', data: { violent_crime: 0.5, property_crime: 0.3 } });
    expect(r.lines[0]).toBe(
      '{"t": 1728975600.0, "app": "CityApp", "fn": "get_crime_rate", "args": {"zip_code": "12345"}, "w": false, ' +
        '"ret": {"violent_crime": 0.5, "property_crime": 0.3}, "sim_t": "2024-10-15 07:00:00"}',
    );
    expect(w.state('city_app.json').api_call_count).toBe(6);
  });

  it('an unknown zip fails but still consumes a call', async () => {
    const w = await city();
    const r = await w.run(['city', 'get-crime-rate', '--zip-code', '99999']);
    expect([r.exitCode, errText(r), r.events.length]).toEqual([1, 'Zip code does not exist in our database', 0]);
    expect((await w.run(['city', 'get-api-call-count'])).json).toEqual({ status: 'success', data: 1 });
  });

  it('rate-limits after the quota, resets the counter, and recovers after 30 minutes', async () => {
    const w = await city({ api_call_limit: 2 });
    for (let i = 0; i < 2; i++) expect((await w.run(['city', 'get-crime-rate', '--zip-code', '12345'])).exitCode).toBe(0);
    const limited = await w.run(['city', 'get-crime-rate', '--zip-code', '12345']);
    expect([limited.exitCode, errText(limited)]).toEqual([1, LIMIT_MSG(2)]);
    expect(w.state('city_app.json')).toMatchObject({ api_call_count: 0, rate_limit_exceeded: true, rate_limit_time: 1728975600 });
    const during = await w.run(['city', 'get-crime-rate', '--zip-code', '12345'], { simTime: '2024-10-15 07:29:59' });
    expect(errText(during)).toBe(LIMIT_MSG(2));
    const after = await w.run(['city', 'get-crime-rate', '--zip-code', '12345'], { simTime: '2024-10-15 07:30:00' });
    expect(after.exitCode).toBe(0);
    expect(w.state('city_app.json')).toMatchObject({ api_call_count: 1, rate_limit_exceeded: false, rate_limit_time: null });
  });

  it('reports the stored count and limit (100 by default)', async () => {
    const w = await city({ api_call_count: 42 });
    expect((await w.run(['city', 'get-api-call-count'])).json).toEqual({ status: 'success', data: 42 });
    expect((await w.run(['city', 'get-api-call-limit'])).json).toEqual({ status: 'success', data: 100 });
    const w2 = await city({ api_call_limit: 250 });
    const r = await w2.run(['city', 'get-api-call-limit']);
    expect([r.json, JSON.parse(r.lines[0]!).ret]).toEqual([{ status: 'success', data: 250 }, 250]);
  });

  it('needs --zip-code and suggests close commands for typos', async () => {
    const w = await city();
    const missing = await w.run(['city', 'get-crime-rate']);
    expect([missing.exitCode, errText(missing)]).toEqual([2, "Usage: city get-crime-rate [OPTIONS]\nTry 'city get-crime-rate --help' for help.\n\nError: Missing option '--zip-code'."]);
    const typo = await w.run(['city', 'get-crime-rates']);
    expect(errText(typo)).toContain("Did you mean one of: 'add-crime-rate', 'get-crime-rate', 'update-crime-rate'?");
  });

  it('ENV add-crime-rate upserts and update-crime-rate changes one field', async () => {
    const w = await city();
    const add = await w.action('City', 'add_crime_rate', { zip_code: '54321', violent_crime_rate: 1, property_crime_rate: 2.5 });
    expect(add.json).toEqual({ status: 'success', message: 'Added Successfully' });
    expect(add.lines[0]).toContain('"args": {"zip_code": "54321", "violent_crime_rate": 1.0, "property_crime_rate": 2.5}');
    const upd = await w.action('City', 'update_crime_rate', { zip_code: '54321', new_property_crime_rate: 3 });
    expect(JSON.parse(upd.lines[0]!)).toMatchObject({ args: { new_violent_crime_rate: null, new_property_crime_rate: 3 }, ret: 'Updated Successfully' });
    const r = await w.run(['city', 'get-crime-rate', '--zip-code', '54321']);
    expect(r.stdout).toContain('"violent_crime": 1.0,\n    "property_crime": 3.0');
    expect(errText(await w.action('City', 'update_crime_rate', { zip_code: '54321' }))).toBe('No update provided');
    expect(errText(await w.action('City', 'update_crime_rate', { zip_code: '0', new_violent_crime_rate: 1 }))).toBe(
      'Zip code does not exist in our database',
    );
  });

  it('names a malformed crime_data entry instead of crashing', async () => {
    const w = await testWorld([{ name: 'City', app_state: { crime_data: { '1': { violent_crime: 1 } } } }]);
    const r = await w.run(['city', 'get-crime-rate', '--zip-code', '1']);
    expect([r.exitCode, errText(r)]).toEqual([1, 'city_app.json: crime_data["1"] must have exactly violent_crime and property_crime']);
  });
});
