// Every container the runner creates carries these labels, so `clean` and Ctrl-C handling
// can find exactly this run's containers.
export const LABELS = {
  managed: 'gaia2.managed',
  runId: 'gaia2.run-id',
  scenarioId: 'gaia2.scenario-id',
  runIndex: 'gaia2.run-index',
} as const;
