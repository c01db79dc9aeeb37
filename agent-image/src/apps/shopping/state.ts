// shopping.json: products (with item variants), cart, orders and discount codes keyed by item
// id. Stored objects keep their own key order; only missing top-level maps are defaulted.
import { fail } from '../framework/errors.js';
import { isRecord } from '../framework/json-shapes.js';
import { viewOf } from '../framework/state-views.js';

export type Obj = Record<string, unknown>;

export interface ShopState extends Obj {
  products: Record<string, Obj>;
  cart: Record<string, Obj>;
  orders: Record<string, Obj>;
  discount_codes: Record<string, Record<string, unknown>>;
}


export function loadShopState(raw: Obj | null): ShopState {
  // A copy of the top level: the defaults are added for this command (and written with its
  // save), never into the stored state by a command that does not save.
  const s: Obj = { ...raw };
  for (const key of ['products', 'cart', 'orders', 'discount_codes']) {
    if (s[key] === undefined) s[key] = {};
    else if (!isRecord(s[key])) fail(`shopping.json: "${key}" is not an object`);
  }
  for (const key of ['products', 'cart', 'orders', 'discount_codes']) {
    // Checked once per stored map (commands only ever store objects in them).
    viewOf(s[key] as Obj, 'checked', () => {
      for (const [id, v] of Object.entries(s[key] as Obj)) {
        if (!isRecord(v)) fail(`shopping.json: ${key}["${id}"] is not an object`);
      }
      return true;
    });
  }
  return s as ShopState;
}

/** The variants map of a product ({} when absent). */
export const variantsOf = (product: Obj): Obj => (isRecord(product.variants) ? product.variants : {});

/** The variant with this item id, searched across all products in order. */
export function findItem(s: ShopState, itemId: string): Obj | null {
  for (const product of Object.values(s.products)) {
    const variants = variantsOf(product);
    if (Object.hasOwn(variants, itemId)) return isRecord(variants[itemId]) ? (variants[itemId] as Obj) : {};
  }
  return null;
}

/** The reference's reading of an availability string: false only for false/0/no. */
export const availabilityFromText = (v: unknown): boolean => !['false', '0', 'no'].includes(String(v).toLowerCase());
