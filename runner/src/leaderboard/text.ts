// The leaderboard's prose, shared by the Markdown and the HTML page.
import type { Leaderboard, LeaderboardSection } from './build.js';

const SETTING_NAMES: Record<string, string> = { standard: 'Standard', noise: 'Noise', agent2agent: 'Agent2Agent', 'agent2agent+noise': 'Agent2Agent with Noise' };

export function sectionHeading(s: LeaderboardSection): string {
  return `${SETTING_NAMES[s.setting] ?? s.setting} setting: ${s.rows.length} run(s)`;
}

export function methodsText(lb: Leaderboard): string[] {
  return [
    'Each row is one run (a run directory, a pass@N root, or one phase of a gaia2-run root), linked to its viewer. ' +
      'Its numbers are the ones gaia2-runner report computes for that run: success rate = passes / counted runs; SE clustered by scenario; ' +
      '95% CI = rate ± 1.96·SE, clipped to [0, 100%]; mean of splits = the mean of the capability splits\' rates, SE = √(Σ SE²)/splits; ' +
      'pass@k = mean over scenarios of 1 − C(n−c,k)/C(n,k), pass^k = mean of C(c,k)/C(n,k), over scenarios with at least k counted runs. ' +
      'Errors are left out of every denominator unless the run was started with --errors-as-failures (or the leaderboard was built with it). ' +
      "Program failed: judged runs whose agent program failed a turn on its own (its failure text was the judged reply), counted in the rates like any judged run; " +
      "a failure while the model gateway's record shows the provider failing in that turn is a provider_error instead (an error).",
    'Rows are ordered by the mean of splits (the overall rate for a run without splits). Runs of different settings (standard, Noise, Agent2Agent) are in separate sections. ' +
      "Per scenario run: the row's totals over all its runs (errors included) divided by their number. The agent's input tokens include cached ones; " +
      'the total cost adds the app agents and the judge.',
    `Prices: ${lb.prices.join(' + ')}; a model missing from the price table shows no cost. Generated ${lb.generated_at}.`,
  ];
}
