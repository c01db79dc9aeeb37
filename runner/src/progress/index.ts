// Progress of a dataset run: a live bar (cli-progress) on a terminal, one plain line per
// finished run otherwise (CI logs, pipes). Both show done/total, P/F/E, pass rate and ETA.
import { createRequire } from 'node:module';
import type { SingleBar } from 'cli-progress';
import type { RunStatus } from '@gaia2/contract/result';
import { redact } from '../secrets/redact.js';

export interface Progress {
  start(total: number): void;
  /** One finished run; `label` is e.g. `run_2/search/s1`. */
  done(label: string, status: RunStatus, errorKind?: string): void;
  /** A log line that must not break the bar. */
  log(line: string): void;
  stop(): void;
  /** The model gateway's counts now: requests waiting, rate-limit answers, retries (shown when any). */
  traffic?(t: TrafficCounts): void;
}

export interface TrafficCounts {
  queued: number;
  throttled: number;
  retried: number;
}

/** ` gw: queued=… throttled=… retried=…`, or nothing while all are zero. */
export function formatTraffic(t: TrafficCounts | null): string {
  if (!t || (!t.queued && !t.throttled && !t.retried)) return '';
  return ` gw: queued=${t.queued} throttled=${t.throttled} retried=${t.retried}`;
}

export interface Counts {
  done: number;
  total: number;
  passed: number;
  failed: number;
  errors: number;
}

export function formatCounts(c: Counts, elapsedMs: number): string {
  const judged = c.passed + c.failed;
  const rate = judged ? `${Math.round((100 * c.passed) / judged)}%` : '—';
  const left = c.total - c.done;
  const eta = c.done && left ? `${Math.round(((elapsedMs / c.done) * left) / 1000)}s` : left ? '—' : '0s';
  return `P=${c.passed} F=${c.failed} E=${c.errors} rate=${rate} eta=${eta}`;
}

export function createProgress(o: { stream?: NodeJS.WriteStream; tty?: boolean; now?: () => number } = {}): Progress {
  const tty = o.tty ?? Boolean(process.stdout.isTTY && process.stderr.isTTY);
  const stream = o.stream ?? (tty ? process.stderr : process.stdout);
  const now = o.now ?? Date.now;
  const c: Counts = { done: 0, total: 0, passed: 0, failed: 0, errors: 0 };
  let traffic: TrafficCounts | null = null;
  let t0 = now();
  let bar: SingleBar | null = null;
  const count = (s: RunStatus) => {
    c.done++;
    if (s === 'pass') c.passed++;
    else if (s === 'fail') c.failed++;
    else c.errors++;
  };
  if (!tty) {
    return {
      start(total) {
        c.total = total;
        t0 = now();
      },
      done(label, status, kind) {
        count(status);
        const what = status === 'error' ? `ERROR${kind ? `(${kind})` : ''}` : status.toUpperCase();
        stream.write(redact(`[${c.done}/${c.total}] ${label} ${what} ${formatCounts(c, now() - t0)}${formatTraffic(traffic)}\n`));
      },
      traffic(t) {
        traffic = t;
      },
      log(line) {
        stream.write(redact(line) + '\n');
      },
      stop() {},
    };
  }
  return {
    start(total) {
      c.total = total;
      t0 = now();
      // Loaded on first use: plain-line runs (CI, pipes) never pay for the bar library.
      const { SingleBar: Bar } = createRequire(import.meta.url)('cli-progress') as typeof import('cli-progress');
      bar = new Bar({ stream, format: '{bar} {value}/{total} {counts} {last}', hideCursor: true, clearOnComplete: false, barsize: 30 });
      bar.start(total, 0, { counts: formatCounts(c, 0), last: '' });
    },
    done(label, status) {
      count(status);
      bar?.update(c.done, { counts: formatCounts(c, now() - t0) + formatTraffic(traffic), last: label });
    },
    traffic(t) {
      traffic = t;
      bar?.update(c.done, { counts: formatCounts(c, now() - t0) + formatTraffic(traffic) });
    },
    log(line) {
      // Clear the bar line, print, and let the next update redraw it.
      stream.write('\r\x1b[K' + redact(line) + '\n');
      bar?.updateETA();
      bar?.render();
    },
    stop() {
      bar?.stop();
    },
  };
}
