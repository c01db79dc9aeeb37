// runAction against the reference's own oracle replays, for rent-a-flat, shopping, cabs, city
// and cloud-drive (see oracle-replay.ts).
import { describe, it } from 'vitest';
import { replayOracleLines } from './oracle-replay.js';

const CLASSES = new Set(['RentAFlat', 'ShoppingApp', 'CabApp', 'CityApp', 'SandboxLocalFileSystem']);
const SCENARIOS = [
  'adaptability/adapt_shopping_reorder_cancelled',
  'execution/exec_files_tax_cleanup',
  'execution/exec_shopping_bottle_order',
  'search/search_cab_cheapest_airport',
  'search/search_flat_safest_two_bed',
  'time/time_shopping_price_drop',
];

describe('runAction reproduces the reference oracle replay lines (rest apps)', () => {
  for (const path of SCENARIOS) {
    it(path, async () => {
      await replayOracleLines(path, {
        classes: CLASSES,
        // order_ride without a ride time quotes at "now", which in the recorded replay was the
        // replaying process's wall clock, not the sim time.
        maskRet: (l) => l.fn === 'order_ride' && l.args.ride_time === null,
      });
    });
  }
});
