// The viewer's browser code, bundled by the build into the pages' shared `_viewer.js`
// (viewer/pages/client-script.ts): every page kind's renderer, started when the page loads.
import { renderCompare } from './compare.js';
import { renderExperiment, renderLanding } from './experiment.js';
import { startPage, type Renderers } from './page.js';
import { renderRun, renderWaiting } from './run.js';
import { renderTrace } from './trace.js';

const RENDERERS: Renderers = {
  run: renderRun,
  waiting: renderWaiting,
  experiment: renderExperiment,
  landing: renderLanding,
  compare: renderCompare,
  trace: renderTrace,
};

document.addEventListener('DOMContentLoaded', () => startPage(RENDERERS));
