// Cab operations on a loaded CabState. Each returns the value the reference prints under
// "data"/"message"; callers persist the state afterwards (reads persist too: the
// reference stores every quotation and every delay update).

import { fail } from '../framework/errors.js';
import { pySlice } from '../framework/py-builtins.js';
import { formatDateTime, parseDateTime } from '../framework/time.js';
import { QuoteError, quote, updatedDelay, type Ride } from './quote.js';
import type { CabState } from './state.js';

const RIDE_TIME_FORMAT_ERROR = 'Invalid datetime format for the ride time. Please use YYYY-MM-DD HH:MM:SS';

/** Ride time of a quote: the given string, else now truncated to the second. */
function rideTimestamp(rideTime: string | null, now: number): number {
  const parsed = parseDateTime(rideTime ?? formatDateTime(now));
  return parsed.ok ? parsed.epoch : fail(RIDE_TIME_FORMAT_ERROR);
}

function quoteOrFail(s: CabState, start: string, end: string, service: string, ts: number): Ride {
  try {
    return quote(start, end, service, ts, s.quotation_history, s.d_service_config);
  } catch (e) {
    if (e instanceof QuoteError) fail(e.message);
    throw e;
  }
}

export function getQuotation(s: CabState, start: string, end: string, service: string, rideTime: string | null, now: number): Ride {
  return quoteOrFail(s, start, end, service, rideTimestamp(rideTime, now));
}

/** One quote per configured service, in config order; any failure aborts the whole list. */
export function listRides(s: CabState, start: string, end: string, rideTime: string | null, now: number): Ride[] {
  const ts = rideTimestamp(rideTime, now);
  return Object.keys(s.d_service_config).map((service) => quoteOrFail(s, start, end, service, ts));
}

/** Books a ride; what the user sees hides the driver's delay (as ARE's app did). */
export function orderRide(
  s: CabState,
  start: string,
  end: string,
  service: string,
  rideTime: string | null,
  now: number,
): Record<string, unknown> {
  if (s.on_going_ride !== null) fail('You have an on-going ride.');
  const ride = quoteOrFail(s, start, end, service, rideTimestamp(rideTime, now));
  ride.status = 'BOOKED';
  ride.delay_history.push({ delay: ride.delay, time_stamp: ride.time_stamp });
  s.ride_history.push(ride);
  s.on_going_ride = ride;
  const { delay: _delay, delay_history: _history, ...shown } = ride;
  return shown;
}

export const USER_CANCEL_MESSAGE = 'Ride has been cancelled, sorry to see you go.';

export function userCancelRide(s: CabState): string {
  const ride = s.on_going_ride ?? fail('You have no on-going ride.');
  const booked = s.ride_history.find((r) => r.ride_id === ride.ride_id);
  if (booked) booked.status = 'CANCELLED';
  s.on_going_ride = null;
  return USER_CANCEL_MESSAGE;
}

/** The ongoing ride with its delay re-estimated at `now` (mirrored into ride_history). */
export function currentRideStatus(s: CabState, now: number): Ride {
  const ride = s.on_going_ride ?? fail('No ride ordered.');
  if (ride.time_stamp !== null && ride.delay !== null) {
    ride.delay = updatedDelay(ride, now);
    ride.delay_history = [...ride.delay_history, { delay: ride.delay, time_stamp: ride.time_stamp }];
    const booked = s.ride_history.find((r) => r.ride_id === ride.ride_id);
    if (booked) {
      // A fresh copy of the history row, so the quotation that shares it keeps its own data.
      const idx = s.ride_history.indexOf(booked);
      s.ride_history[idx] = { ...booked, delay: ride.delay, delay_history: ride.delay_history };
    }
  }
  return ride;
}

export function getRide(s: CabState, idx: number): Ride {
  if (!(idx >= 0 && idx < s.ride_history.length)) fail('Ride does not exist.');
  return s.ride_history[idx]!;
}

export function rideHistory(s: CabState, offset: number, limit: number): Record<string, unknown> {
  const total = s.ride_history.length;
  const rides: Record<string, Ride> = {};
  pySlice(s.ride_history, offset, offset + limit).forEach((r, i) => {
    rides[String(offset + i)] = r;
  });
  return { rides, range: [offset, Math.min(offset + limit, total)], total };
}

