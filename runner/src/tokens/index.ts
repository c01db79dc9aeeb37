// Token usage and its cost: the one token type and its adder (counts.ts), the price table
// (prices.ts, prices.json), the one cost function (cost.ts) and the one reading of
// result.json's usage by role (roles.ts).
export { addTokens, freshInput, sumTokens, ZERO_TOKENS, type TokenUsage } from './counts.js';
export { addCost, costUsd } from './cost.js';
export { defaultPriceTable, loadPriceTable, priceKey, priceOf, PRICES_ENV, type Price, type PriceTable } from './prices.js';
export { usageRolesOf, type UsageRoles } from './roles.js';
