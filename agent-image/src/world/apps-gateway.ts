// All app commands go through here, one at a time, against the apps' states in memory (the
// daemon is their only writer; MemoryStates): the CLI socket, ENV events, the oracle and app
// agents alike. persist() writes the changed states to their files (docs/daemon.md, "App
// state"). The daemon appends the returned event lines itself (single writer).
import { MemoryStates, runAction, runCli, type CommandResult, type DriveBuild, type WorldContext } from '../apps/index.js';

export interface AppCallContext {
  simTime: string;
  eventId?: string;
  surface?: WorldContext['surface'];
}

/** The daemon's app states; GAIA2_STATE_VERIFY=1 (tests) checks the rules commands follow on them. */
export const worldStates = (): MemoryStates => new MemoryStates({ verify: process.env.GAIA2_STATE_VERIFY === '1' });

export class AppsGateway {
  private chain: Promise<unknown> = Promise.resolve();
  private inFlight = 0;
  private ended = false;

  readonly states: MemoryStates;
  /** Handed to every command as WorldContext.beforeDrive. */
  private readonly driveReady: (() => void) | undefined;

  constructor(
    private readonly stateDir: string,
    private readonly extra: { fsRoot?: string; ids?: () => string } = {},
    states?: MemoryStates,
    /**
     * The drive tree still being built (docs/daemon.md, "App state"): finished when a command
     * first reaches for the drive's files (WorldContext.beforeDrive) and when the run ends.
     */
    private readonly drive: DriveBuild | null = null,
  ) {
    this.states = states ?? worldStates();
    this.driveReady = drive ? () => drive.finish() : undefined;
  }

  /**
   * Once the boot is over (docs/daemon.md, "Boot"): parses the seeded states the scenario's
   * parse deferred, then writes every state not yet written (the seeded ones) to its file, one
   * app per turn of the event loop and never while a command runs, so that the end of the run
   * writes only what changed after; then `done` (the daemon lets the scenario's text go). A
   * state that fails to parse stops it: the command that loads that state reports the error.
   */
  settleInBackground(done?: () => void): void {
    if (this.settling) return;
    this.settling = true;
    const next = (): void => {
      if (this.ended) return; // the end persists whatever is left
      if (this.inFlight > 0) {
        setImmediate(next);
        return;
      }
      let more: boolean;
      try {
        more = this.states.parseDeferred() || this.states.persistOne() !== null;
      } catch {
        return;
      }
      if (more) setImmediate(next);
      else done?.();
    };
    setImmediate(next);
  }
  private settling = false;

  /** Writes every app state changed since the last call to its file; returns the files written. */
  persist(): string[] {
    return this.states.persist();
  }

  /** The run ended: persist now, and after every later command (an agent may still be running some). */
  settle(): void {
    this.ended = true;
    // The states are written even when the drive's tree could not be built (its error follows).
    try {
      this.drive?.finish();
    } finally {
      this.persist();
    }
  }

  /** Whether the drive's tree is complete on disk (always, when there is no tree to build). */
  get driveComplete(): boolean {
    return !this.drive || this.drive.done;
  }

  get busy(): boolean {
    return this.inFlight > 0;
  }

  cli(argv: readonly string[], ctx: () => AppCallContext): Promise<CommandResult> {
    return this.serial(() => runCli(argv, this.world(ctx())));
  }

  action(app: string, fn: string, args: Record<string, unknown>, ctx: () => AppCallContext): Promise<CommandResult> {
    return this.serial(() => runAction(app, fn, args, this.world(ctx())));
  }

  private world(c: AppCallContext): WorldContext {
    return { stateDir: this.stateDir, simTime: c.simTime, eventId: c.eventId, surface: c.surface, states: this.states, beforeDrive: this.driveReady, ...this.extra };
  }

  /** Runs `fn` after every earlier call; the context is taken when the call actually starts. */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    this.inFlight++;
    const run = this.chain.then(fn, fn);
    this.chain = run.catch(() => undefined);
    return run
      .catch((e: unknown): T => {
        const msg = e instanceof Error ? e.message : String(e);
        return { stdout: '', stderr: `internal error: ${msg}\n`, exitCode: 1, events: [] } as T;
      })
      .finally(() => {
        this.inFlight--;
        if (!this.ended) return;
        try {
          this.persist();
        } catch {
          // the files keep what the end of the run wrote; the next command tries again
        }
      });
  }
}
