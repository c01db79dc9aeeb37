// Public surface of run comparison (`gaia2-runner compare`).
export { buildCompare, BOOTSTRAP_SEED, type Comparison, type PairComparison, type PairStats, type Flip } from './build.js';
export { renderCompareMarkdown, renderCompareHtml } from './render.js';
export { mcnemarExact, pairedBootstrap, pairedSe, seededRandom } from './paired-stats.js';
