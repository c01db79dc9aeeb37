// Shopping cart, checkout and order rules (reference ShoppingApp semantics and error texts).
import { num, pyFloat, type PyFloat } from '../../contract/pyjson.js';
import { fail } from '../framework/errors.js';
import { detached } from '../framework/state-store.js';
import { codepointCompare, pySlice, pyTruthy } from '../framework/py-builtins.js';
import { findItem, type Obj, type ShopState } from './state.js';

export function listAllProducts(s: ShopState, offset: number, limit: number): Obj {
  const byName = new Map<string, unknown>();
  for (const [pid, info] of Object.entries(s.products)) byName.set(String(info.name), pid); // later names win
  const sorted = [...byName.entries()].sort((a, b) => codepointCompare(a[0], b[0]));
  const total = Object.keys(s.products).length;
  return {
    products: Object.fromEntries(pySlice(sorted, offset, offset + limit)),
    metadata: { range: [offset, Math.min(offset + limit, total)], total },
  };
}

export function searchProducts(s: ShopState, name: string, offset: number, limit: number): Obj[] {
  const want = name.toLowerCase();
  const found = Object.values(s.products).filter((p) => String(p.name ?? '').toLowerCase().includes(want));
  return pySlice(found, offset, offset + limit);
}

/** Adds to the cart; returns the item's new cart quantity. */
export function addToCart(s: ShopState, itemId: string, quantity: number): unknown {
  if (quantity <= 0) fail('Quantity cannot be negative or zero');
  const item = findItem(s, itemId);
  if (item === null || Object.keys(item).length === 0) fail('Product does not exist');
  const variant = item as Obj;
  if (Object.hasOwn(variant, 'available') && !pyTruthy(variant.available)) fail('Product is not available');
  const line = s.cart[itemId];
  if (line) line.quantity = num(line.quantity) + quantity;
  else {
    s.cart[itemId] = {
      item_id: Object.hasOwn(variant, 'item_id') ? variant.item_id : itemId,
      quantity,
      price: Object.hasOwn(variant, 'price') ? variant.price : pyFloat(0),
      available: Object.hasOwn(variant, 'available') ? variant.available : true,
      // A copy: the file holds the cart line's options apart from the product's.
      options: Object.hasOwn(variant, 'options') ? detached(variant.options) : {},
    };
  }
  return s.cart[itemId]!.quantity;
}

export function removeFromCart(s: ShopState, itemId: string, quantity: number): void {
  if (quantity < 0) fail('Quantity cannot be negative');
  const line = Object.hasOwn(s.cart, itemId) ? s.cart[itemId]! : fail('Product not in cart');
  if (quantity > num(line.quantity)) fail('Quantity exceeds available quantity');
  line.quantity = num(line.quantity) - quantity;
  if (line.quantity === 0) delete s.cart[itemId];
}

/** Creates an order from the whole cart; a non-empty code must be valid for every item. */
export function checkout(s: ShopState, code: string | null, now: number, newId: () => string): { orderId: string; total: PyFloat } {
  if (Object.keys(s.cart).length === 0) fail('Cart is empty');
  const useCode = code !== null && code.length > 0;
  const codesFor = (iid: string): Obj => (s.discount_codes[iid] as Obj | undefined) ?? {};
  if (useCode) {
    for (const iid of Object.keys(s.cart)) {
      if (!Object.hasOwn(codesFor(iid), code)) fail(`The provided discount code is not valid for the item with id - ${iid}`);
    }
  }
  let total = 0;
  for (const [iid, line] of Object.entries(s.cart)) {
    const price = Object.hasOwn(line, 'price') ? num(line.price) : 0;
    const qty = Object.hasOwn(line, 'quantity') ? num(line.quantity) : 1;
    let itemTotal = price * qty;
    if (useCode) itemTotal = itemTotal * (1 - num(codesFor(iid)[code] ?? 0) / 100);
    total += itemTotal;
  }
  const orderTotal = pyFloat(total);
  const orderId = newId();
  s.orders[orderId] = {
    order_id: orderId,
    order_status: 'processed',
    order_date: pyFloat(now),
    order_total: orderTotal,
    order_items: { ...s.cart },
  };
  s.cart = {};
  return { orderId, total: orderTotal };
}

/** {item_id: percent} for every item accepting the code. */
export function discountCodeInfo(s: ShopState, code: string): Obj {
  const info: Obj = {};
  for (const [iid, codes] of Object.entries(s.discount_codes)) if (Object.hasOwn(codes, code)) info[iid] = codes[code];
  return info;
}

export function order(s: ShopState, orderId: string): Obj {
  return Object.hasOwn(s.orders, orderId) ? s.orders[orderId]! : fail('Order does not exist');
}

export function cancelOrder(s: ShopState, orderId: string): void {
  const o = order(s, orderId);
  const status = o.order_status ?? '';
  if (status !== 'processed' && status !== 'shipped') {
    fail(`Order ${orderId} cannot be cancelled, current status: ${String(status)}`);
  }
  o.order_status = 'cancelled';
}
