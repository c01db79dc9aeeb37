// The page data of every page kind, as the build writes it and the browser code reads it
// (viewer/browser/): one declaration, so both sides type-check against the same shape.
import type { IndexRow, TraceView, ViewStatus } from './types.js';
import type { GatewayCounts } from '../../trace/traffic-lines.js';

export interface Crumb {
  label: string;
  href?: string;
}

export interface RunPage {
  page: 'run';
  name: string;
  subtitle: string;
  crumbs: Crumb[];
  expected: number | null;
  splits: Array<{ name: string; expected: number | null }>;
  rows: IndexRow[];
  /** The model gateway's counts (model_gateway.json); null: no gateway. */
  gateway: GatewayCounts | null;
}

/** A run dir with no scenario results yet. */
export interface WaitingPage {
  page: 'waiting';
  name: string;
  crumbs: Crumb[];
  expected: number | null;
  model: string;
  agent: string;
  startedAt: string;
}

export interface RunTally {
  pass: number;
  fail: number;
  error: number;
  running: number;
  expected: number | null;
}

/** A pass@N root: its runs, pass@k and the scenario × run matrix. */
export interface ExperimentPage {
  page: 'experiment';
  name: string;
  crumbs: Crumb[];
  subtitle: string;
  runs: Array<RunTally & { name: string; href: string }>;
  passK: Array<{ k: number; passAt: number | null; passHat: number | null; n: number }>;
  splitNames: string[];
  scenarios: Array<{ id: string; split: string; cells: Array<{ status: ViewStatus; href: string } | null> }>;
  compareHref: string;
  /** The model gateway's counts over the whole pass@N run; null: no gateway. */
  gateway: GatewayCounts | null;
}

/** A folder of runs and pass@N roots. */
export interface LandingPage {
  page: 'landing';
  name: string;
  crumbs: Crumb[];
  entries: Array<RunTally & { name: string; kind: string; model: string; agent: string; startedAt: string; href: string }>;
}

export interface CompareSideStatus {
  status: string;
  href: string;
}

export interface ComparePage {
  page: 'compare';
  crumbs: Crumb[];
  a: { name: string };
  b: { name: string };
  rows: Array<{ id: string; a: CompareSideStatus; b: CompareSideStatus; divergence: { index: number; a: string; b: string } | null }>;
}

export type PageData = RunPage | WaitingPage | ExperimentPage | LandingPage | ComparePage | TraceView;
