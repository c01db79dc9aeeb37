// Token usage and its cost: the one token type and its adder (counts.ts), the price table
// (prices.ts, prices.json) and the one cost function (cost.ts).
export { addTokens, freshInput, sumTokens, ZERO_TOKENS, type TokenUsage } from './counts.js';
export { addCost, costUsd } from './cost.js';
export { defaultPriceTable, loadPriceTable, priceKey, priceOf, PRICES_ENV, type Price, type PriceTable } from './prices.js';
