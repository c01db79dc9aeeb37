// The time format the host derives from a scenario's start time (docs/runner.md, "A scenario's
// facts"); the facts themselves come from the dataset's one parse (dataset/read-scenario.ts).

/** "YYYY-MM-DD HH:MM:SS" in UTC, the FAKETIME / sim_t format. */
export function formatSimTime(epochSeconds: number): string {
  return new Date(Math.floor(epochSeconds) * 1000).toISOString().slice(0, 19).replace('T', ' ');
}
