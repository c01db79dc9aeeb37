// pass@k and pass^k over the scenarios of a pass@N root, with the report's metrics so the
// dashboard and report.json always agree (docs/runner.md, "Report numbers").
import { mean, passAtK as scenarioPassAtK, passHatK } from '../../report/metrics.js';

export interface PassAtK {
  k: number;
  passAt: number | null;
  passHat: number | null;
  /** Scenarios with at least k judged runs. */
  n: number;
}

/** counts: per scenario, n = judged runs, c = passes. */
export function passAtK(counts: Array<{ n: number; c: number }>, maxK: number): PassAtK[] {
  const out: PassAtK[] = [];
  for (let k = 1; k <= maxK; k++) {
    const at = counts.map((s) => scenarioPassAtK(s.n, s.c, k)).filter((x): x is number => x !== null);
    const hat = counts.map((s) => passHatK(s.n, s.c, k)).filter((x): x is number => x !== null);
    out.push({ k, passAt: mean(at), passHat: mean(hat), n: at.length });
  }
  return out;
}
