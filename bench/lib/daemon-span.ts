// The scenario's own work as the world daemon logged it (eventd.log): from "world ready" to
// its terminal status line (the oracle's actions, ENV events, judging). The runner's own
// scenario phase undercounts that work: the daemon answers /health only between its steps, so
// the runner often first sees the agent connected when the scenario is already done.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const LINE = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d),(\d{3}) \S+ \w+ (.*)$/;

const at = (m: RegExpExecArray) => Date.parse(`${m[1]}T${m[2]}.${m[3]}Z`);

/** ms from "world ready" to the terminal "status …:" line, or null when either is missing. */
export function daemonScenarioMs(log: string): number | null {
  let ready: number | null = null;
  for (const line of log.split('\n')) {
    const m = LINE.exec(line);
    if (!m) continue;
    if (m[4]!.startsWith('world ready')) ready = at(m);
    else if (ready !== null && /^status (complete|stopped|error):/.test(m[4]!)) return at(m) - ready;
  }
  return null;
}

/** Σ daemonScenarioMs over every eventd.log under dir (attempt copies excluded), and how many. */
export function sumDaemonScenarioMs(dir: string): { ms: number; runs: number } {
  let ms = 0;
  let runs = 0;
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory() && e.name !== '.attempts') walk(join(d, e.name));
      else if (e.name === 'eventd.log') {
        const span = daemonScenarioMs(readFileSync(join(d, e.name), 'utf8'));
        if (span !== null) {
          ms += span;
          runs++;
        }
      }
    }
  };
  walk(dir);
  return { ms, runs };
}
