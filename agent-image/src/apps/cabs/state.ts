// cab_app.json as the reference reads and rewrites it: rides normalised to the 11 Ride keys
// (unknown keys dropped, missing ones defaulted), the service config defaulted when absent.
import { pyFloat } from '../../contract/pyjson.js';
import { fail } from '../framework/errors.js';
import { isRecord } from '../framework/json-shapes.js';
import { detached } from '../framework/state-store.js';
import { RIDE_KEYS, type Ride, type ServiceConfig } from './quote.js';

export const DEFAULT_SERVICE_CONFIG: Record<string, ServiceConfig> = {
  Default: { nb_seats: 4, price_per_km: pyFloat(1.0), base_delay_min: 5, max_distance_km: 25 },
  Premium: { nb_seats: 4, price_per_km: pyFloat(2.0), base_delay_min: 3, max_distance_km: 25 },
  Van: { nb_seats: 6, price_per_km: pyFloat(1.5), base_delay_min: 7, max_distance_km: 25 },
};

export interface CabState {
  ride_history: Ride[];
  quotation_history: Ride[];
  d_service_config: Record<string, ServiceConfig>;
  on_going_ride: Ride | null;
}


/** A Ride from a stored object: known keys only, in Ride order, defaults for the missing ones. */
export function toRide(raw: unknown, where: string): Ride {
  if (!isRecord(raw)) return fail(`cab_app.json: ${where} is not an object`);
  const ride: Record<string, unknown> = {};
  for (const k of RIDE_KEYS) {
    if (Object.hasOwn(raw, k)) ride[k] = raw[k];
    else ride[k] = k === 'ride_id' ? '' : k === 'delay_history' ? [] : null;
  }
  return ride as unknown as Ride;
}

function toRides(raw: unknown, key: string): Ride[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) return fail(`cab_app.json: "${key}" is not a list`);
  return raw.map((r, i) => toRide(r, `${key}[${i}]`));
}

export function loadCabState(raw: Record<string, unknown>): CabState {
  const config = raw.d_service_config === undefined ? DEFAULT_SERVICE_CONFIG : raw.d_service_config;
  if (!isRecord(config)) return fail('cab_app.json: "d_service_config" is not an object');
  for (const [service, c] of Object.entries(config)) {
    if (!isRecord(c)) fail(`cab_app.json: d_service_config["${service}"] is not an object`);
  }
  return {
    ride_history: toRides(raw.ride_history, 'ride_history'),
    quotation_history: toRides(raw.quotation_history, 'quotation_history'),
    d_service_config: config as Record<string, ServiceConfig>,
    // A falsy stored ride ({} or null) counts as none, as in the reference.
    on_going_ride: isRecord(raw.on_going_ride) && Object.keys(raw.on_going_ride).length > 0
      ? toRide(raw.on_going_ride, 'on_going_ride')
      : null,
  };
}

/**
 * The whole-file form the visible commands write back. A ride can sit in both histories and be
 * the ongoing one (one object, as in the reference's call); the file holds separate copies, and
 * so must the stored state, which later commands change (docs/daemon.md, "App state").
 */
export const dumpCabState = (s: CabState): Record<string, unknown> => ({
  ride_history: s.ride_history,
  quotation_history: detached(s.quotation_history),
  d_service_config: s.d_service_config,
  on_going_ride: detached(s.on_going_ride),
});
