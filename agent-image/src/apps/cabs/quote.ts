// Deterministic cab quotations. The reference replaced ARE's seeded RNG with md5 digests of the
// quote inputs, so equal inputs always give the same ride id, price, delay and duration; we
// reproduce its arithmetic exactly, including Python's int/float distinction and the
// Python float repr of the timestamp inside the hashed strings.
import { createHash } from 'node:crypto';
import { PyFloat, num, pyFloat, pyFloatRepr } from '../../contract/pyjson.js';

/** A Python number as stored in state: an int (JS number), or a float (PyFloat or a non-integral number). */
export type PyNum = number | PyFloat;

export const isFloat = (v: unknown): boolean =>
  v instanceof PyFloat || (typeof v === 'number' && !Number.isInteger(v));

/** Result of a Python arithmetic op: a float when either operand was one, else an int. */
export const pyResult = (value: number, ...operands: unknown[]): PyNum =>
  operands.some(isFloat) ? pyFloat(value) : value;

/** int(md5(text).hexdigest(), 16) % mod, as a JS number (mod is small). */
export function md5Mod(text: string, mod: number): number {
  const digest = BigInt('0x' + createHash('md5').update(text, 'utf8').digest('hex'));
  return Number(digest % BigInt(mod));
}

export const md5Hex = (text: string): string => createHash('md5').update(text, 'utf8').digest('hex');

/** Python `str(ts)` for an epoch float (always a float in the reference: strptime().timestamp() or time.time()). */
export const tsText = (ts: number): string => pyFloatRepr(ts);

export interface ServiceConfig {
  nb_seats?: unknown;
  price_per_km: PyNum;
  base_delay_min: PyNum;
  max_distance_km: PyNum;
}

export interface Ride {
  ride_id: string;
  status: string | null;
  service_type: string | null;
  start_location: string | null;
  end_location: string | null;
  price: PyNum | null;
  duration: PyNum | null;
  time_stamp: PyNum | null;
  distance_km: PyNum | null;
  delay: PyNum | null;
  delay_history: Array<Record<string, unknown>>;
}

export const RIDE_KEYS = [
  'ride_id',
  'status',
  'service_type',
  'start_location',
  'end_location',
  'price',
  'duration',
  'time_stamp',
  'distance_km',
  'delay',
  'delay_history',
] as const;

/** Distance of the first earlier quote between the same places, else a hash in 5.00–19.99 km. */
function distanceFor(start: string, end: string, quotes: readonly Ride[]): PyNum | null {
  for (const q of quotes) if (q.start_location === start && q.end_location === end) return q.distance_km;
  return pyFloat(md5Mod(start + end, 1500) / 100 + 5);
}

function priceFor(
  start: string,
  end: string,
  service: string,
  distance: PyNum,
  ts: number,
  quotes: readonly Ride[],
  config: ServiceConfig,
): PyNum {
  const prev = quotes.find((q) => q.start_location === start && q.end_location === end && q.service_type === service);
  if (prev && prev.price !== null && num(prev.price) !== 0) {
    // Repeat quotes drift from the first one: ±variance, variance growing 1 %/hour, clamped to 0.5–1.5.
    const variance = Math.min(Math.max((0.01 * (ts - num(prev.time_stamp))) / 3600, 0.5), 1.5);
    const factor = (md5Mod(`${start}${end}${service}${tsText(ts)}`, 2000) / 1000 - 1) * variance;
    return pyFloat(num(prev.price) * (1 + factor));
  }
  return pyResult(num(distance) * num(config.price_per_km), distance, config.price_per_km);
}

/** Quote one ride at `ts` (epoch seconds) and append it to `quotes`; throws a message on bad input. */
export function quote(
  start: string,
  end: string,
  service: string,
  ts: number,
  quotes: Ride[],
  configs: Record<string, ServiceConfig>,
): Ride {
  if (!Object.hasOwn(configs, service)) throw new QuoteError('Invalid service type.');
  const config = configs[service]!;
  const distance = distanceFor(start, end, quotes);
  if (distance === null || num(distance) > num(config.max_distance_km)) {
    throw new QuoteError('Distance exceeds maximum allowed.');
  }
  const price = priceFor(start, end, service, distance, ts, quotes, config);
  const offset = md5Mod(`delay${start}${end}${service}${tsText(ts)}`, 5) + 1;
  const delay = pyResult(num(config.base_delay_min) + offset, config.base_delay_min);
  const duration = pyFloat((num(distance) / 50) * 60 + md5Mod(`dur${start}${end}${tsText(ts)}`, 1000) / 100);
  const ride: Ride = {
    ride_id: md5Hex(`${start}${end}${service}${tsText(ts)}`),
    status: null,
    service_type: service,
    start_location: start,
    end_location: end,
    price,
    duration,
    time_stamp: pyFloat(ts),
    distance_km: distance,
    delay,
    delay_history: [],
  };
  quotes.push(ride);
  return ride;
}

/**
 * The ride's delay after `now`: the reference's update rule, kept as is (including the
 * min(0, …) that makes every updated delay ≤ 0). Returns int 0 when the new delay is ≥ 0,
 * like Python's min(0, x) does.
 */
export function updatedDelay(ride: Ride, now: number): PyNum {
  const delta = now - num(ride.time_stamp);
  const r = md5Mod(`delay_update${ride.ride_id}${tsText(now)}`, 2500) / 1000 - 1.5;
  const next = num(ride.delay) - delta * (1 + r);
  return next < 0 ? pyFloat(next) : 0;
}

/** A handled quotation failure (the reference's ValueError, printed as a one-line error). */
export class QuoteError extends Error {
  override name = 'QuoteError';
}
