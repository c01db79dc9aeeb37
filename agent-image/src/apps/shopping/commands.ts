// The `shopping` CLI (reference ShoppingApp): catalogue, cart, checkout and orders, plus the
// hidden ENV commands that change the catalogue, discount codes and order status.
import { parsePyJson } from '../../contract/pyjson.js';
import { fail } from '../framework/errors.js';
import { pyDictUpdateEntries } from '../framework/py-builtins.js';
import { opt } from '../framework/options.js';
import type { AppContext, AppDef, CommandDef } from '../framework/types.js';
import {
  addToCart,
  cancelOrder,
  checkout,
  discountCodeInfo,
  listAllProducts,
  order,
  removeFromCart,
  searchProducts,
} from './ops.js';
import { availabilityFromText, findItem, loadShopState, type Obj, type ShopState } from './state.js';

const OFFSET = opt('offset', 'Offset to start listing from.', { type: 'integer', default: 0 });
const LIMIT = opt('limit', 'Number of products to list.', { type: 'integer', default: 10 });

const load = (ctx: AppContext): ShopState => loadShopState(ctx.loadState());
const ok = (extra: Obj): Obj => ({ status: 'success', ...extra });

const visible: CommandDef[] = [
  {
    name: 'list-all-products',
    fn: 'list_all_products',
    write: false,
    help: 'List all products in the catalog.',
    options: [OFFSET, LIMIT],
    run(o, ctx) {
      const result = listAllProducts(load(ctx), o.offset as number, o.limit as number);
      return { output: ok(result), args: { offset: o.offset, limit: o.limit }, ret: result };
    },
  },
  {
    name: 'get-product-details',
    fn: 'get_product_details',
    write: false,
    help: 'Get product details for a given product ID.',
    options: [opt('product_id', 'Product ID to get details for.', { required: true })],
    run(o, ctx) {
      const s = load(ctx);
      const id = o.product_id as string;
      const product = Object.hasOwn(s.products, id) ? s.products[id] : fail('Product does not exist');
      return { output: ok({ product }), args: { product_id: id }, ret: product };
    },
  },
  {
    name: 'search-products',
    fn: 'search_product',
    write: false,
    help: 'Search for products by name (case-insensitive substring match).',
    options: [
      opt('product_name', 'Product name to search for (case-insensitive substring match).', { required: true }),
      OFFSET,
      LIMIT,
    ],
    run(o, ctx) {
      const products = searchProducts(load(ctx), o.product_name as string, o.offset as number, o.limit as number);
      return { output: ok({ products }), args: { product_name: o.product_name, offset: o.offset, limit: o.limit }, ret: products };
    },
  },
  {
    name: 'add-to-cart',
    fn: 'add_to_cart',
    write: true,
    help: 'Add an item to the cart.',
    options: [
      opt('item_id', 'Item (variant) ID to add to cart.', { required: true }),
      opt('quantity', 'Quantity to add (default 1).', { type: 'integer', default: 1 }),
    ],
    run(o, ctx) {
      const s = load(ctx);
      const id = o.item_id as string;
      const quantity = addToCart(s, id, o.quantity as number);
      ctx.saveState(s);
      return { output: ok({ item_id: id, quantity }), args: { item_id: id, quantity: o.quantity }, ret: id };
    },
  },
  {
    name: 'remove-from-cart',
    fn: 'remove_from_cart',
    write: true,
    help: 'Remove an item from the cart.',
    options: [
      opt('item_id', 'Item (variant) ID to remove from cart.', { required: true }),
      opt('quantity', 'Quantity to remove (default 1).', { type: 'integer', default: 1 }),
    ],
    run(o, ctx) {
      const s = load(ctx);
      const id = o.item_id as string;
      removeFromCart(s, id, o.quantity as number);
      ctx.saveState(s);
      return { output: ok({ item_id: id }), args: { item_id: id, quantity: o.quantity }, ret: id };
    },
  },
  {
    name: 'list-cart',
    fn: 'list_cart',
    write: false,
    help: 'List the contents of the cart.',
    options: [],
    run(_o, ctx) {
      const cart = load(ctx).cart;
      return { output: ok({ cart }), args: {}, ret: cart };
    },
  },
  {
    name: 'checkout',
    fn: 'checkout',
    write: true,
    help: 'Checkout the current cart and create an order.',
    options: [opt('discount_code', 'Optional discount code to apply.')],
    run(o, ctx) {
      const s = load(ctx);
      const code = (o.discount_code as string | null | undefined) ?? null;
      // Validation happens before the id is drawn, so a failed checkout consumes no id.
      const result = checkout(s, code, ctx.now, () => ctx.newId());
      ctx.saveState(s);
      return { output: ok({ order_id: result.orderId, total: result.total }), args: { discount_code: code }, ret: result.orderId };
    },
  },
  {
    name: 'get-discount-code-info',
    fn: 'get_discount_code_info',
    write: false,
    help: 'Get information about a specific discount code.',
    options: [opt('discount_code', 'Discount code to look up.', { required: true })],
    run(o, ctx) {
      const code = o.discount_code as string;
      const info = discountCodeInfo(load(ctx), code);
      return { output: ok({ discount_code: code, info }), args: { discount_code: code }, ret: info };
    },
  },
  {
    name: 'get-all-discount-codes',
    fn: 'get_all_discount_codes',
    write: false,
    help: 'List all available discount codes.',
    options: [],
    run(_o, ctx) {
      const codes = load(ctx).discount_codes;
      return { output: ok({ discount_codes: codes }), args: {}, ret: codes };
    },
  },
  {
    name: 'list-orders',
    fn: 'list_orders',
    write: false,
    help: 'List all orders.',
    options: [],
    run(_o, ctx) {
      const orders = load(ctx).orders;
      return { output: ok({ orders }), args: {}, ret: orders };
    },
  },
  {
    name: 'get-order-details',
    fn: 'get_order_details',
    write: false,
    help: 'Get details for a specific order.',
    options: [opt('order_id', 'Order ID to get details for.', { required: true })],
    run(o, ctx) {
      const found = order(load(ctx), o.order_id as string);
      return { output: ok({ order: found }), args: { order_id: o.order_id }, ret: found };
    },
  },
  {
    name: 'cancel-order',
    fn: 'cancel_order',
    write: true,
    help: "Cancel an order. Only orders with status 'processed' or 'shipped' can be cancelled.",
    options: [opt('order_id', 'Order ID to cancel.', { required: true })],
    run(o, ctx) {
      const s = load(ctx);
      const id = o.order_id as string;
      cancelOrder(s, id);
      ctx.saveState(s);
      return { output: ok({ order_id: id }), args: { order_id: id }, ret: id };
    },
  },
];

/** JSON option text, or `fallback` when it does not parse (the reference's lenient ENV parsing). */
function jsonOr(text: unknown, fallback: () => unknown): unknown {
  try {
    return parsePyJson(String(text));
  } catch {
    return fallback();
  }
}

const hidden: CommandDef[] = [
  {
    name: 'add-product',
    fn: 'add_product',
    write: true,
    hidden: true,
    help: '[ENV] Add a new product to the catalog.',
    options: [opt('name', 'Product name.', { required: true })],
    run(o, ctx) {
      const s = load(ctx);
      const id = ctx.newId();
      s.products[id] = { name: o.name, product_id: id, variants: {} };
      ctx.saveState(s);
      return { output: ok({ product_id: id }), args: { name: o.name }, ret: id };
    },
  },
  {
    name: 'add-item-to-product',
    fn: 'add_item_to_product',
    write: true,
    hidden: true,
    help: '[ENV] Add an item variant to a product.',
    options: [
      opt('product_id', 'Product ID to add item to.', { required: true }),
      opt('price', 'Item price.', { type: 'float', required: true }),
      opt('options', 'JSON dict of item options.', { default: '{}' }),
      opt('available', 'Whether item is available.', { default: 'True' }),
    ],
    run(o, ctx) {
      const s = load(ctx);
      const pid = o.product_id as string;
      const product = Object.hasOwn(s.products, pid) ? s.products[pid]! : fail('Product does not exist');
      const options = o.options ? jsonOr(o.options, () => ({})) : {};
      const available = availabilityFromText(o.available);
      const id = ctx.newId();
      if (typeof product.variants !== 'object' || product.variants === null) product.variants = {};
      (product.variants as Obj)[id] = { item_id: id, price: o.price, available, options };
      ctx.saveState(s);
      return { output: ok({ item_id: id }), args: { product_id: pid, price: o.price, options, available }, ret: id };
    },
  },
  {
    name: 'update-item',
    fn: 'update_item',
    write: true,
    hidden: true,
    help: "[ENV] Update an item's price and/or availability.",
    options: [
      opt('item_id', 'Item ID to update.', { required: true }),
      opt('new_price', 'New price.', { type: 'float' }),
      opt('new_availability', 'New availability (True/False).'),
    ],
    run(o, ctx) {
      const price = o.new_price ?? null;
      const availability = o.new_availability ?? null;
      if (price === null && availability === null) fail('No update provided');
      const s = load(ctx);
      const id = o.item_id as string;
      const item = findItem(s, id) ?? fail(`Item with id ${id} does not exist`);
      if (price !== null) item.price = price;
      if (availability !== null) item.available = availabilityFromText(availability);
      ctx.saveState(s);
      return { output: ok({ item_id: id }), args: { item_id: id, new_price: price, new_availability: availability }, ret: id };
    },
  },
  {
    name: 'add-discount-code',
    fn: 'add_discount_code',
    write: true,
    hidden: true,
    help: '[ENV] Add a discount code for an item.',
    options: [
      opt('item_id', 'Item ID for the discount.', { required: true }),
      opt('discount_code', 'JSON dict {code: discount_pct}.', { required: true }),
    ],
    run(o, ctx) {
      const s = load(ctx);
      const id = o.item_id as string;
      if (findItem(s, id) === null) fail(`Item ${id} does not exist in the inventory.`);
      const parsed = jsonOr(o.discount_code, () => fail('Invalid JSON for discount_code'));
      s.discount_codes[id] = { ...(s.discount_codes[id] ?? {}), ...pyDictUpdateEntries(parsed) };
      ctx.saveState(s);
      const message = 'Successfully added the discount code';
      return { output: ok({ message }), args: { item_id: id, discount_code: parsed }, ret: message };
    },
  },
  {
    name: 'update-order-status',
    fn: 'update_order_status',
    write: true,
    hidden: true,
    help: "[ENV] Update an order's status.",
    options: [
      opt('order_id', 'Order ID to update.', { required: true }),
      opt('status', 'New status.', { default: 'shipped' }),
    ],
    run(o, ctx) {
      const s = load(ctx);
      const id = o.order_id as string;
      const found = order(s, id);
      const status = o.status as string;
      if (!['processed', 'shipped', 'delivered', 'cancelled'].includes(status)) fail('Invalid status');
      found.order_status = status;
      ctx.saveState(s);
      return { output: ok({ order_id: id }), args: { order_id: id, status }, ret: id };
    },
  },
];

export const shoppingApp: AppDef = {
  cli: 'shopping',
  stateName: 'Shopping',
  help: 'Shopping - Gaia2 app CLI',
  commands: [...visible, ...hidden],
};
