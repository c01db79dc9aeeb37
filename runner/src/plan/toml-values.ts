// Typed TOML values shared by the config tables: integers arrive as bigint (smol-toml), so
// `timeout = 600.0` is a float and rejected where an integer is wanted.
import { z } from 'zod';

export const optStr = z
  .string({ error: 'must be a string' })
  .transform((s) => s.trim() || undefined)
  .optional();
export const int = z
  .bigint({ error: 'must be an integer' })
  .transform((n) => Number(n))
  .optional();
export const num = z
  .union([z.bigint(), z.number()], { error: 'must be a number' })
  .transform((n) => Number(n))
  .optional();
export const bool = z.boolean({ error: 'must be true or false' }).optional();
export const strList = z
  .array(z.string({ error: 'must be a list of strings' }), { error: 'must be a list of strings' })
  .transform((l) => l.map((s) => s.trim()).filter(Boolean))
  .optional();
export const choice = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `must be one of: ${values.join(', ')}` }).optional();

/** TOML values as JSON: integers (bigint here) become numbers, dates ISO strings, all the way down. */
function asJson(v: unknown): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) return v.map(asJson);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, asJson(x)]));
  return v;
}

/** A TOML table taken as a JSON object (e.g. [judge].extra_body); an empty one counts as unset. */
export const jsonTable = z
  .record(z.string(), z.unknown(), { error: 'must be a TOML table (e.g. { reasoning_effort = "low" })' })
  .transform((t) => (Object.keys(t).length ? (asJson(t) as Record<string, unknown>) : undefined))
  .optional();
