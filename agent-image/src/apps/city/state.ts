// city_app.json: crime data per zip code plus the free-tier limiter (100 calls, then a
// 30-minute cooldown during which every call fails and the counter restarts from 0).
import { pyFloat } from '../../contract/pyjson.js';
import { fail } from '../framework/errors.js';
import { isRecord } from '../framework/json-shapes.js';
import { viewOf } from '../framework/state-views.js';

export interface CrimePoint {
  violent_crime: unknown;
  property_crime: unknown;
}

const COOLDOWN_SECONDS = 1800;

export const crimePoint = (violent: unknown, property: unknown): CrimePoint => ({ violent_crime: violent, property_crime: property });

/** crime_data with each entry checked to have exactly the two rates (the reference's dataclass). */
export function crimeData(state: Record<string, unknown>): Record<string, CrimePoint> {
  const raw = state.crime_data ?? {};
  if (!isRecord(raw)) fail('city_app.json: "crime_data" is not an object');
  // Built once per stored crime_data object; the ENV commands that change it store a new one.
  return viewOf(raw, 'crimeData', () => checkedCrimeData(raw as Record<string, unknown>));
}

function checkedCrimeData(raw: Record<string, unknown>): Record<string, CrimePoint> {
  const out: Record<string, CrimePoint> = {};
  for (const [zip, v] of Object.entries(raw as Record<string, unknown>)) {
    const keys = isRecord(v) ? Object.keys(v).sort().join(',') : '';
    if (keys !== 'property_crime,violent_crime') {
      fail(`city_app.json: crime_data["${zip}"] must have exactly violent_crime and property_crime`);
    }
    const p = v as Record<string, unknown>;
    out[zip] = crimePoint(p.violent_crime, p.property_crime);
  }
  return out;
}

export const callLimit = (state: Record<string, unknown>): unknown => state.api_call_limit ?? 100;
export const callCount = (state: Record<string, unknown>): unknown => state.api_call_count ?? 0;
const n = (v: unknown): number => Number(v);

/**
 * Counts one call against the quota, saving the limiter state; fails with the reference's
 * rate-limit message when over quota or inside the cooldown.
 */
export function rateLimitedCall(state: Record<string, unknown>, now: number, save: () => void): void {
  const since = (): number => now - n(state.rate_limit_time);
  if (state.rate_limit_time != null && since() >= COOLDOWN_SECONDS) {
    state.rate_limit_time = null;
    state.rate_limit_exceeded = false;
  }
  const limited =
    (n(callCount(state)) >= n(callLimit(state)) && state.rate_limit_time == null) ||
    (state.rate_limit_time != null && since() < COOLDOWN_SECONDS);
  if (limited) {
    if (state.rate_limit_time == null) state.rate_limit_time = pyFloat(now);
    state.api_call_count = 0;
    state.rate_limit_exceeded = true;
    save();
    fail(
      `Free version only supports ${String(callLimit(state))} API calls. ` +
        'Please try again after 30 minutes or upgrade to pro-version.',
    );
  }
  state.api_call_count = n(callCount(state)) + 1;
  save();
}
