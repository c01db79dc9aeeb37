import { beforeEach, describe, expect, it } from 'vitest';
import { pyFloat } from '../../../agent-image/src/contract/pyjson.js';
import { errText, testWorld, type TestWorld } from './rest-world.js';

const STATE = `{"products": {
  "p1": {"name": "Widget", "product_id": "p1", "variants": {
    "i1": {"price": 10.0, "available": true, "item_id": "i1", "options": {"color": "red"}},
    "i2": {"price": 12.5, "available": false, "item_id": "i2", "options": {}}}},
  "p2": {"name": "Gadget", "product_id": "p2", "variants": {
    "i3": {"price": 158.67, "available": true, "item_id": "i3", "options": {}}}},
  "p3": {"name": "widget stand", "product_id": "p3", "variants": {
    "i4": {"price": 54.85, "available": true, "item_id": "i4", "options": {}}}}},
 "cart": {},
 "discount_codes": {"i1": {"SAVE10": 10.0}, "i3": {"DISC10": 10.0}, "i4": {"DISC10": 10.0}},
 "orders": {"o1": {"order_status": "delivered", "order_date": "2024-10-09T12:00:00+00:00", "order_total": 49.0, "order_id": "o1", "order_items": {}}}}`;

let w: TestWorld;
beforeEach(async () => {
  w = await testWorld([{ name: 'Shopping', class_name: 'ShoppingApp', app_state: STATE }]);
});
const cmd = (...a: string[]) => w.run(['shopping', ...a]);

describe('shopping catalogue', () => {
  it('lists products as {name: id}, sorted by code point, paged with metadata', async () => {
    const all = await cmd('list-all-products');
    expect(all.json).toEqual({
      status: 'success',
      products: { Gadget: 'p2', Widget: 'p1', 'widget stand': 'p3' },
      metadata: { range: [0, 3], total: 3 },
    });
    const page = await cmd('list-all-products', '--offset', '1', '--limit', '1');
    expect(page.json).toMatchObject({ products: { Widget: 'p1' }, metadata: { range: [1, 2], total: 3 } });
    expect(JSON.parse(page.lines[0]!)).toMatchObject({ fn: 'list_all_products', args: { offset: 1, limit: 1 }, w: false });
  });

  it('gets product details and searches names case-insensitively (logged as search_product)', async () => {
    expect((await cmd('get-product-details', '--product-id', 'p2')).json).toMatchObject({ product: { name: 'Gadget' } });
    const missing = await cmd('get-product-details', '--product-id', 'nope');
    expect([missing.exitCode, errText(missing)]).toEqual([1, 'Product does not exist']);
    const found = await cmd('search-products', '--product-name', 'WID');
    expect((found.json as { products: Array<{ product_id: string }> }).products.map((p) => p.product_id)).toEqual(['p1', 'p3']);
    expect(JSON.parse(found.lines[0]!)).toMatchObject({ fn: 'search_product', args: { product_name: 'WID', offset: 0, limit: 10 } });
    expect((await cmd('search-products')).exitCode).toBe(2);
  });
});

describe('shopping cart', () => {
  it('adds (accumulating), freezes the price, and rejects bad quantities or items', async () => {
    expect((await cmd('add-to-cart', '--item-id', 'i1', '--quantity', '2')).json).toEqual({ status: 'success', item_id: 'i1', quantity: 2 });
    const more = await cmd('add-to-cart', '--item-id', 'i1', '--quantity', '3');
    expect(more.json).toEqual({ status: 'success', item_id: 'i1', quantity: 5 });
    expect(more.lines[0]).toContain('"args": {"item_id": "i1", "quantity": 3}, "w": true, "ret": "i1"');
    expect(errText(await cmd('add-to-cart', '--item-id', 'i1', '--quantity', '0'))).toBe('Quantity cannot be negative or zero');
    expect(errText(await cmd('add-to-cart', '--item-id', 'zz'))).toBe('Product does not exist');
    expect(errText(await cmd('add-to-cart', '--item-id', 'i2'))).toBe('Product is not available');
    expect((await cmd('add-to-cart', '--item-id', 'i1', '--quantity', 'two')).exitCode).toBe(2);
    const cart = await cmd('list-cart');
    expect(cart.json).toEqual({ status: 'success', cart: { i1: { item_id: 'i1', quantity: 5, price: 10, available: true, options: { color: 'red' } } } });
  });

  it('removes part of a line, deletes it at zero, and rejects bad removals', async () => {
    await cmd('add-to-cart', '--item-id', 'i1', '--quantity', '3');
    expect((await cmd('remove-from-cart', '--item-id', 'i1')).json).toEqual({ status: 'success', item_id: 'i1' });
    expect(errText(await cmd('remove-from-cart', '--item-id', 'i1', '--quantity', '5'))).toBe('Quantity exceeds available quantity');
    expect(errText(await cmd('remove-from-cart', '--item-id', 'i1', '--quantity', '-1'))).toBe('Quantity cannot be negative');
    expect(errText(await cmd('remove-from-cart', '--item-id', 'i3'))).toBe('Product not in cart');
    await cmd('remove-from-cart', '--item-id', 'i1', '--quantity', '2');
    expect(w.state('shopping.json').cart).toEqual({});
  });
});

describe('shopping checkout and orders', () => {
  it('totals price × quantity with the discount, empties the cart and records the order', async () => {
    await cmd('add-to-cart', '--item-id', 'i3', '--quantity', '5');
    await cmd('add-to-cart', '--item-id', 'i4');
    const r = await cmd('checkout', '--discount-code', 'DISC10');
    const id = w.ids[0]!;
    expect(r.json).toEqual({ status: 'success', order_id: id, total: 5 * 158.67 * 0.9 + 54.85 * 0.9 });
    expect(JSON.parse(r.lines[0]!)).toMatchObject({ fn: 'checkout', args: { discount_code: 'DISC10' }, w: true, ret: id });
    const order = await cmd('get-order-details', '--order-id', id);
    expect(order.json).toMatchObject({ order: { order_id: id, order_status: 'processed', order_date: 1728975600 } });
    expect(order.stdout).toContain('"order_date": 1728975600.0');
    expect(Object.keys((await cmd('list-orders')).json as object)).toContain('orders');
    expect(errText(await cmd('checkout'))).toBe('Cart is empty');
  });

  it('refuses a code that is not valid for every item and leaves the cart alone', async () => {
    await cmd('add-to-cart', '--item-id', 'i1');
    await cmd('add-to-cart', '--item-id', 'i3');
    const r = await cmd('checkout', '--discount-code', 'DISC10');
    expect([r.exitCode, errText(r)]).toEqual([1, 'The provided discount code is not valid for the item with id - i1']);
    expect(Object.keys(w.state('shopping.json').cart as object)).toEqual(['i1', 'i3']);
    expect(w.ids).toEqual([]);
    const plain = await cmd('checkout', '--discount-code', '');
    expect((plain.json as { total: number }).total).toBe(168.67);
    expect(JSON.parse(plain.lines[0]!).args).toEqual({ discount_code: '' });
  });

  it('cancels processed orders only; unknown orders fail', async () => {
    await cmd('add-to-cart', '--item-id', 'i1');
    await cmd('checkout');
    const id = w.ids[0]!;
    expect((await cmd('cancel-order', '--order-id', id)).json).toEqual({ status: 'success', order_id: id });
    expect(errText(await cmd('cancel-order', '--order-id', id))).toBe(`Order ${id} cannot be cancelled, current status: cancelled`);
    expect(errText(await cmd('cancel-order', '--order-id', 'o1'))).toBe('Order o1 cannot be cancelled, current status: delivered');
    expect(errText(await cmd('get-order-details', '--order-id', 'x'))).toBe('Order does not exist');
  });

  it('reports discount codes per item', async () => {
    const info = await cmd('get-discount-code-info', '--discount-code', 'DISC10');
    expect(info.json).toEqual({ status: 'success', discount_code: 'DISC10', info: { i3: 10, i4: 10 } });
    const all = await cmd('get-all-discount-codes');
    expect((all.json as { discount_codes: object }).discount_codes).toHaveProperty('i1');
  });
});

describe('shopping ENV commands', () => {
  it('adds a product and an item, updates it, and adds discount codes', async () => {
    const p = await w.action('Shopping', 'add_product', { name: 'Gizmo' });
    const pid = w.ids[0]!;
    expect(p.json).toEqual({ status: 'success', product_id: pid });
    const item = await w.action('Shopping', 'add_item_to_product', { product_id: pid, price: 19.99, options: { size: 'M' }, available: true });
    const iid = w.ids[1]!;
    expect(JSON.parse(item.lines[0]!)).toMatchObject({ args: { product_id: pid, price: 19.99, options: { size: 'M' }, available: true }, ret: iid });
    const upd = await w.action('Shopping', 'update_item', { item_id: iid, new_price: 7.5, new_availability: 'False' });
    expect(JSON.parse(upd.lines[0]!).args).toEqual({ item_id: iid, new_price: 7.5, new_availability: 'False' });
    expect(errText(await cmd('add-to-cart', '--item-id', iid))).toBe('Product is not available');
    expect(errText(await w.action('Shopping', 'update_item', { item_id: iid }))).toBe('No update provided');
    expect(errText(await w.action('Shopping', 'update_item', { item_id: 'zz', new_price: 1 }))).toBe('Item with id zz does not exist');
    const code = await w.action('Shopping', 'add_discount_code', { item_id: 'i1', discount_code: { SAVE20: pyFloat(20) } });
    expect(code.json).toEqual({ status: 'success', message: 'Successfully added the discount code' });
    expect(code.lines[0]).toContain('"discount_code": {"SAVE20": 20.0}');
    expect((w.state('shopping.json').discount_codes as Record<string, unknown>).i1).toEqual({ SAVE10: 10, SAVE20: 20 });
    expect(errText(await cmd('add-discount-code', '--item-id', 'i1', '--discount-code', 'nope'))).toBe('Invalid JSON for discount_code');
    expect(errText(await cmd('add-discount-code', '--item-id', 'zz', '--discount-code', '{}'))).toBe('Item zz does not exist in the inventory.');
    expect(errText(await w.action('Shopping', 'add_item_to_product', { product_id: 'zz', price: 1 }))).toBe('Product does not exist');
  });

  it('updates order status (validated) and ENV cancel_order uses the visible command', async () => {
    const r = await w.action('Shopping', 'update_order_status', { order_id: 'o1', status: 'shipped' });
    expect(JSON.parse(r.lines[0]!)).toMatchObject({ args: { order_id: 'o1', status: 'shipped' }, ret: 'o1' });
    expect(errText(await w.action('Shopping', 'update_order_status', { order_id: 'o1', status: 'lost' }))).toBe('Invalid status');
    expect(errText(await w.action('Shopping', 'update_order_status', { order_id: 'x' }))).toBe('Order does not exist');
    const c = await w.action('Shopping', 'cancel_order', { order_id: 'o1' });
    expect(c.exitCode).toBe(0);
  });
});

describe('shopping bad state', () => {
  it('names a malformed entry instead of crashing', async () => {
    const bad = await testWorld([{ name: 'Shopping', app_state: { products: { p: null } } }]);
    const r = await bad.run(['shopping', 'list-all-products']);
    expect([r.exitCode, errText(r)]).toEqual([1, 'shopping.json: products["p"] is not an object']);
  });
});
