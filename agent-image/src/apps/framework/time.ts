// Reference time handling: every date string is `%Y-%m-%d %H:%M:%S` in UTC, parsed with
// Python strptime's leniency (one-digit fields allowed), stored as epoch seconds (floats).
import { pyRepr } from './python.js';

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const STRPTIME_RE =
  /^(\d{4})-(1[0-2]|0[1-9]|[1-9])-(3[01]|[12]\d|0[1-9]|[1-9]| [1-9])\s+(2[0-3]|[01]\d|\d):([0-5]\d|\d):(6[01]|[0-5]\d|\d)$/;

export const FORMAT = '%Y-%m-%d %H:%M:%S';

export type ParsedTime = { ok: true; epoch: number } | { ok: false; error: string };

/** datetime.strptime(s, '%Y-%m-%d %H:%M:%S') as UTC epoch seconds, or Python's ValueError text. */
export function parseDateTime(s: string): ParsedTime {
  const m = STRPTIME_RE.exec(s);
  if (!m) {
    return { ok: false, error: `time data ${pyRepr(s)} does not match format '${FORMAT}'` };
  }
  const [y, mo, d, h, mi, se] = m.slice(1).map((x) => Number(x.trim())) as [number, number, number, number, number, number];
  if (se > 59) return { ok: false, error: 'second must be in 0..59' };
  const ms = Date.UTC(y, mo - 1, d, h, mi, se);
  if (new Date(ms).getUTCDate() !== d) return { ok: false, error: 'day is out of range for month' };
  return { ok: true, epoch: ms / 1000 };
}

const two = (n: number): string => String(n).padStart(2, '0');

/** strftime('%Y-%m-%d %H:%M:%S') of an epoch in UTC. */
export function formatDateTime(epoch: number): string {
  const d = new Date(Math.floor(epoch) * 1000);
  return (
    `${String(d.getUTCFullYear()).padStart(4, '0')}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())} ` +
    `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`
  );
}

/** strftime('%A, %Y-%m-%d %H:%M:%S') in UTC (English weekday). */
export function formatWeekdayDateTime(epoch: number): string {
  return `${DAYS[new Date(Math.floor(epoch) * 1000).getUTCDay()]}, ${formatDateTime(epoch)}`;
}

/** The sim clock string `YYYY-MM-DD HH:MM:SS` (UTC) as epoch seconds; throws on a bad value. */
export function simTimeToEpoch(simTime: string): number {
  const p = parseDateTime(simTime.trim());
  if (!p.ok) throw new Error(`Invalid simulated time ${JSON.stringify(simTime)}: expected YYYY-MM-DD HH:MM:SS (UTC)`);
  return p.epoch;
}
