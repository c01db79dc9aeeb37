// The one price table: prices.json next to this file, with the entries of a user's file
// (GAIA2_PRICES=<file>, or `report --prices <file>`) replacing them per model. A model the
// table does not know has no price: cost.ts gives it no cost (null), never a guess.
import { readFileSync } from 'node:fs';
import shipped from './prices.json' with { type: 'json' };
import { ConfigError } from '../plan/errors.js';

/** USD per million tokens. Cache prices default to the input price when absent. */
export interface Price {
  input: number;
  output: number;
  cache_read?: number;
  cache_write?: number;
}

export interface PriceTable {
  models: Record<string, Price>;
  /** Where the prices came from: "built-in (as of …)" and any override file. */
  sources: string[];
}

export const PRICES_ENV = 'GAIA2_PRICES';

function checkPrices(models: unknown, where: string): Record<string, Price> {
  if (!models || typeof models !== 'object' || Array.isArray(models)) throw new ConfigError(`${where}: "models" must be an object of model name → prices`);
  const out: Record<string, Price> = {};
  for (const [name, p] of Object.entries(models as Record<string, unknown>)) {
    const price = p as Record<string, unknown>;
    for (const field of ['input', 'output', 'cache_read', 'cache_write']) {
      const v = price?.[field];
      const required = field === 'input' || field === 'output';
      if ((required || v !== undefined) && !(typeof v === 'number' && Number.isFinite(v) && v >= 0)) {
        throw new ConfigError(`${where}: models."${name}".${field} must be a non-negative number (USD per million tokens)`);
      }
    }
    out[priceKey(name)] = price as unknown as Price;
  }
  return out;
}

/** The shipped table, overridden by `file` (or else $GAIA2_PRICES) when given. */
export function loadPriceTable(file?: string, env: NodeJS.ProcessEnv = process.env): PriceTable {
  const table: PriceTable = { models: checkPrices(shipped.models, 'runner/src/tokens/prices.json'), sources: [`built-in (as of ${shipped.as_of})`] };
  const override = file ?? (env[PRICES_ENV]?.trim() || undefined);
  if (!override) return table;
  const where = file ? override : `${PRICES_ENV} (${override})`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(override, 'utf8'));
  } catch (e) {
    throw new ConfigError(`${where}: cannot read a JSON price table: ${(e as Error).message}`);
  }
  Object.assign(table.models, checkPrices((parsed as { models?: unknown } | null)?.models, where));
  table.sources.push(override);
  return table;
}

let defaultTable: PriceTable | null = null;
/** The table of this process (shipped + $GAIA2_PRICES), read once. */
export function defaultPriceTable(): PriceTable {
  return (defaultTable ??= loadPriceTable());
}

/** Lower case, without a provider prefix ("openai/", "anthropic.") or a date/"latest" suffix. */
export function priceKey(model: string): string {
  return model
    .trim()
    .toLowerCase()
    .replace(/^.*\//, '')
    .replace(/(-|@)(\d{8}|\d{4}-\d{2}-\d{2}|latest)$/, '');
}

export function priceOf(table: PriceTable, model: string | null | undefined): Price | null {
  return model ? (table.models[priceKey(model)] ?? null) : null;
}

