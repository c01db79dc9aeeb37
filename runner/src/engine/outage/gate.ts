// One place that waits out an engine outage for a whole dataset run. Runs that fail because the
// engine went away report it here; the gate probes the engine's cheap ping with backoff until it
// answers or the limit passes, and every lane that wants to start or restart a run waits on that
// one probe (one "waiting" line for the user, not one per lane; no runs started into a dead
// engine). Once the limit has passed the gate gives up: later callers get one quick ping, not
// another full wait, so an engine that is gone for good still ends the run in bounded time.

export interface OutageGateOptions {
  /** The engine's cheap liveness probe (UnitBackend.ping): throws while the engine is away. */
  ping: () => Promise<void>;
  /** The longest the engine may stay away before runs end engine_unavailable, in seconds; 0: never wait. */
  limitSeconds: number;
  log: (line: string) => void;
  signal?: AbortSignal;
  /** Probe backoff (tests shorten it): first pause, doubling up to the cap. */
  backoff?: { baseMs: number; maxMs: number };
  /**
   * How long the engine must answer every ping before it counts as back (ms; default 3000): a
   * dockerd shutting down still answers its ping for a second or two while it refuses to start
   * containers, and runs restarted into it would fail again.
   */
  settleMs?: number;
  /** How often the "still waiting" line repeats. */
  reportEveryMs?: number;
  /** The run layer's abortable sleep (run/sleep.ts), passed down: the engine layer sits below it. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
}

interface Window {
  from: number;
  to: number | null;
}

export class OutageGate {
  private probe: Promise<boolean> | null = null;
  private gaveUp = false;
  /** When the engine was seen away: the run that failed, then the probe's span. */
  private readonly windows: Window[] = [];
  private readonly now: () => number;
  private readonly pause: (ms: number, signal?: AbortSignal) => Promise<void>;

  constructor(private readonly o: OutageGateOptions) {
    this.now = o.now ?? Date.now;
    this.pause = o.sleep;
  }

  /** Whether the engine was seen away at any time between the two instants (ms). */
  downBetween(from: number, to: number): boolean {
    return this.windows.some((w) => w.from <= to && (w.to ?? this.now()) >= from);
  }

  /** Whether any outage was seen during this run (leftover units may need sweeping). */
  get seen(): boolean {
    return this.windows.length > 0;
  }

  /**
   * A run failed as if the engine were away: note it, and wait until the engine answers (true)
   * or the limit passes (false). Concurrent callers share one probe.
   */
  reportOutage(): Promise<boolean> {
    this.windows.push({ from: this.now(), to: this.now() });
    return this.waitUntilUp();
  }

  /**
   * A failure that may be an engine going away (classify.ts suspectOutage): the engine is pinged
   * every 250 ms for up to `ms`; if it stops answering meanwhile this is an outage like any other
   * (waited out, true once it is back); if it answers throughout, false.
   */
  async watch(ms: number): Promise<boolean> {
    if (this.probe) return this.probe;
    const until = this.now() + ms;
    for (;;) {
      if (!(await this.answers())) return this.reportOutage();
      if (this.now() >= until || this.o.signal?.aborted) return false;
      await this.pause(Math.min(250, until - this.now()), this.o.signal);
    }
  }

  /**
   * Before a run starts: immediately true unless an outage is being waited out (then its
   * outcome), or the gate gave up (then one quick ping decides).
   */
  async ready(): Promise<boolean> {
    if (this.probe) return this.probe;
    if (!this.gaveUp) return true;
    return this.waitUntilUp();
  }

  private waitUntilUp(): Promise<boolean> {
    this.probe ??= this.waitOut().finally(() => {
      this.probe = null;
    });
    return this.probe;
  }

  private async waitOut(): Promise<boolean> {
    if (await this.steady()) return this.back(null);
    if (this.gaveUp || this.o.limitSeconds <= 0) return false; // one quick ping after giving up
    const w: Window = { from: this.now(), to: null };
    this.windows.push(w);
    const limitMs = this.o.limitSeconds * 1000;
    const every = this.o.reportEveryMs ?? 10_000;
    const { baseMs, maxMs } = this.o.backoff ?? { baseMs: 250, maxMs: 5000 };
    this.o.log(`engine unreachable, waiting (up to ${this.o.limitSeconds}s; no new runs start meanwhile)…`);
    let delay = baseMs;
    let reported = w.from;
    for (;;) {
      const waited = this.now() - w.from;
      if (this.o.signal?.aborted) {
        w.to = this.now(); // interrupted: the run ends as interrupted, not as given up on
        return false;
      }
      if (waited >= limitMs) {
        w.to = this.now();
        this.gaveUp = true;
        this.o.log(`engine still unreachable after ${secs(waited)}s: giving up; the runs it failed end engine_unavailable (rerun them with --retry)`);
        return false;
      }
      if (this.now() - reported >= every) {
        reported = this.now();
        this.o.log(`engine unreachable, waiting (${secs(waited)}s)…`);
      }
      await this.pause(Math.min(delay, limitMs - waited), this.o.signal);
      delay = Math.min(delay * 2, maxMs);
      if (await this.steady()) return this.back(w);
    }
  }

  private back(w: Window | null): boolean {
    if (w) {
      w.to = this.now();
      this.o.log(`engine back after ${secs(w.to - w.from)}s; runs continue (those the outage failed start again)`);
    } else if (this.gaveUp) this.o.log('engine back; runs continue');
    this.gaveUp = false;
    return true;
  }

  /** The engine answers, and goes on answering every 250 ms for the settle time. */
  private async steady(): Promise<boolean> {
    if (!(await this.answers())) return false;
    const until = this.now() + (this.o.settleMs ?? 3000);
    while (this.now() < until) {
      await this.pause(Math.min(250, until - this.now()), this.o.signal);
      if (this.o.signal?.aborted || !(await this.answers())) return false;
    }
    return true;
  }

  private answers(): Promise<boolean> {
    return this.o.ping().then(
      () => true,
      () => false,
    );
  }
}

const secs = (ms: number) => Math.round(ms / 1000);
