// Engine outages cost time, not runs: the run function wrapped so that no run starts while the
// engine is away, and a run an outage cut short (its engine call failed, or its container was
// lost meanwhile) is started again from scratch once the engine answers: its container
// removed, its partial output moved aside (like --retry's attempts), a fresh container. The
// waiting itself is the engine's OutageGate, shared by every lane (docs/reliability.md).
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { ScenarioResult } from '@gaia2/contract/result';
import { isOutageResult, suspectOutage, type OutageGate } from '../engine/outage/index.js';
import { writeJsonAtomic } from '../fsutil/atomic.js';
import { NEVER_ACCEPTED, type RunScenarioFn } from '../run/index.js';

export interface OutageRestartOptions {
  gate: OutageGate;
  /** How long a suspect failure watches the engine (SUSPECT_WATCH_MS; tests shorten it). */
  watchMs?: number;
  /** Restarts of one run for outages before its result stands (a run that keeps dying is not retried forever). */
  maxRestarts: number;
  log: (line: string) => void;
  /** Moves a run's earlier attempt aside (execute's archiveAttempt). */
  archive: (dir: string) => void;
  now?: () => number;
}

export const MAX_OUTAGE_RESTARTS = 2;
/** How long a suspect failure (a unit stopped from outside, a refused start) watches the engine for going away. */
export const SUSPECT_WATCH_MS = 5000;

/**
 * A unit's host port went wrong, not the agent: it ran but never took a connection on its
 * published port (its health timeout says so: the world did not boot, or the engine lost the
 * port's forward), or the engine could not bind the port it had picked itself at create (podman
 * picks it then and binds it only at start, so another process's container or listener can take it
 * meanwhile, and that failed start also drops the other container's forward). Either run starts
 * again once in a new unit, engine up or not; a second such failure stands (an image whose world
 * never starts fails the same way every time).
 */
function portFault(r: ScenarioResult): string | null {
  if (r.status !== 'error') return null;
  if (r.error_kind === 'health_timeout' && NEVER_ACCEPTED.test(r.error ?? '')) return 'its unit never took a connection on its published port';
  if (r.error_kind === 'container_start_failed' && /address already in use|port is already allocated/i.test(r.error ?? '')) return 'the engine could not bind the host port it gave its unit';
  return null;
}

export function withOutageRestarts(run: RunScenarioFn, c: OutageRestartOptions): RunScenarioFn {
  const now = c.now ?? Date.now;
  return async (o) => {
    const label = `${o.scenario?.id ?? basename(o.scenarioFile)}${o.runIndex ? ` (run ${o.runIndex})` : ''}`;
    let restarts = 0;
    let portRestarts = 0;
    for (;;) {
      // Queued runs wait while an outage is waited out. After the gate gave up the run goes
      // ahead and ends engine_unavailable from its own engine call, as without the gate.
      await c.gate.ready();
      let cleanup: (() => Promise<void>) | null = null;
      const from = now();
      const result = await run({ ...o, onCleanup: (fn) => void (cleanup = fn) });
      const lost = (cleanup as (() => Promise<void>) | null) ?? null;
      const eligible = restarts < c.maxRestarts && !o.signal?.aborted;
      const victim = eligible && isOutageResult(result, c.gate.downBetween(from, now()));
      // A dockerd restart answers its API while it shuts down, after stopping the containers: a
      // run sees its unit exit cleanly, or a start refused, with the engine still up. Watched
      // briefly, the engine goes away (an outage after all); a unit stopped from outside is
      // started again either way (nothing of the agent's stopped it).
      const suspect = eligible && !victim ? suspectOutage(result) : null;
      const away = victim ? await c.gate.reportOutage() : suspect ? await c.gate.watch(c.watchMs ?? SUSPECT_WATCH_MS) : false;
      if ((victim && away) || (suspect && (away || suspect === 'stopped'))) {
        restarts++;
        const why =
          suspect === 'stopped'
            ? `its unit was stopped from outside the run (${away ? 'the engine restarted' : 'an engine restart or a manual stop'})`
            : `${result.error_kind} while the engine was away`;
        c.log(`${label}: ${why}; starting it again from scratch (restart ${restarts} of at most ${c.maxRestarts})`);
        // The lost unit goes (an engine that dropped the call may still hold it); if this
        // removal fails too, the end-of-run sweep of the run id's units takes it.
        await lost?.().catch(() => {});
        if (o.outputDir) c.archive(o.outputDir);
        continue;
      }
      const fault = portRestarts === 0 && !o.signal?.aborted ? portFault(result) : null;
      if (fault) {
        portRestarts++;
        restarts++;
        c.log(`${label}: ${fault}; starting it again in a new unit (once)`);
        await lost?.().catch(() => {});
        if (o.outputDir) c.archive(o.outputDir);
        continue;
      }
      if (lost) {
        if (o.onCleanup) o.onCleanup(lost);
        else await lost();
      }
      return restarts ? await marked(result, restarts, o.outputDir) : result;
    }
  };
}

/** The result with its restart count, on disk too when the run wrote one. */
async function marked(result: ScenarioResult, restarts: number, dir: string | null): Promise<ScenarioResult> {
  const r: ScenarioResult = { ...result, infra_restarts: restarts };
  if (dir && existsSync(join(dir, 'result.json'))) await writeJsonAtomic(join(dir, 'result.json'), r);
  return r;
}
