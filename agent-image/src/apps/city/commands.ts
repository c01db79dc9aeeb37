// The `city` CLI (reference CityApp): crime rates behind a free-tier rate limit. The limiter
// state (api_call_count, rate_limit_time, rate_limit_exceeded) lives in city_app.json and is
// saved even when the call then fails, exactly like the reference.

import { fail } from '../framework/errors.js';
import type { AppDef, CommandDef } from '../framework/types.js';
import { crimeData, crimePoint, rateLimitedCall, callCount, callLimit } from './state.js';

const visible: CommandDef[] = [
  {
    name: 'get-crime-rate',
    fn: 'get_crime_rate',
    write: false,
    help: 'Get crime rate for a given zip code (rate-limited).',
    options: [{ name: 'zip_code', flags: ['--zip-code'], type: 'text', required: true, help: 'Zip code to get crime rate for' }],
    run(o, ctx) {
      const state = ctx.loadState() ?? {};
      const data = crimeData(state);
      rateLimitedCall(state, ctx.now, () => ctx.saveState(state));
      const zip = o.zip_code as string;
      if (!Object.hasOwn(data, zip)) fail('Zip code does not exist in our database');
      const point = data[zip]!;
      return { output: { status: 'success', data: point }, args: { zip_code: zip }, ret: point };
    },
  },
  {
    name: 'get-api-call-count',
    fn: 'get_api_call_count',
    write: false,
    help: 'Get the current API call count.',
    options: [],
    run(_o, ctx) {
      const n = callCount(ctx.loadState() ?? {});
      return { output: { status: 'success', data: n }, args: {}, ret: n };
    },
  },
  {
    name: 'get-api-call-limit',
    fn: 'get_api_call_limit',
    write: false,
    help: 'Get the API call limit for the service.',
    options: [],
    run(_o, ctx) {
      const n = callLimit(ctx.loadState() ?? {});
      return { output: { status: 'success', data: n }, args: {}, ret: n };
    },
  },
];

const hidden: CommandDef[] = [
  {
    name: 'add-crime-rate',
    fn: 'add_crime_rate',
    write: true,
    hidden: true,
    help: '[ENV] Add crime rate data for a zip code.',
    options: [
      { name: 'zip_code', flags: ['--zip-code'], type: 'text', required: true, help: 'Zip code.' },
      { name: 'violent_crime_rate', flags: ['--violent-crime-rate'], type: 'float', required: true, help: 'Violent crime rate.' },
      { name: 'property_crime_rate', flags: ['--property-crime-rate'], type: 'float', required: true, help: 'Property crime rate.' },
    ],
    run(o, ctx) {
      const state = ctx.loadState() ?? {};
      const data = crimeData(state);
      data[o.zip_code as string] = crimePoint(o.violent_crime_rate, o.property_crime_rate);
      state.crime_data = data;
      ctx.saveState(state);
      const message = 'Added Successfully';
      const args = { zip_code: o.zip_code, violent_crime_rate: o.violent_crime_rate, property_crime_rate: o.property_crime_rate };
      return { output: { status: 'success', message }, args, ret: message };
    },
  },
  {
    name: 'update-crime-rate',
    fn: 'update_crime_rate',
    write: true,
    hidden: true,
    help: '[ENV] Update crime rate data for a zip code.',
    options: [
      { name: 'zip_code', flags: ['--zip-code'], type: 'text', required: true, help: 'Zip code.' },
      { name: 'new_violent_crime_rate', flags: ['--new-violent-crime-rate'], type: 'float', help: 'New violent crime rate.' },
      { name: 'new_property_crime_rate', flags: ['--new-property-crime-rate'], type: 'float', help: 'New property crime rate.' },
    ],
    run(o, ctx) {
      const violent = o.new_violent_crime_rate ?? null;
      const property = o.new_property_crime_rate ?? null;
      if (violent === null && property === null) fail('No update provided');
      const state = ctx.loadState() ?? {};
      const data = crimeData(state);
      const zip = o.zip_code as string;
      const point = Object.hasOwn(data, zip) ? data[zip]! : fail('Zip code does not exist in our database');
      data[zip] = crimePoint(violent ?? point.violent_crime, property ?? point.property_crime);
      state.crime_data = data;
      ctx.saveState(state);
      const message = 'Updated Successfully';
      const args = { zip_code: zip, new_violent_crime_rate: violent, new_property_crime_rate: property };
      return { output: { status: 'success', message }, args, ret: message };
    },
  },
];

export const cityApp: AppDef = {
  cli: 'city',
  stateName: 'CityApp',
  help: 'CityApp - city information app.',
  commands: [...visible, ...hidden],
};

