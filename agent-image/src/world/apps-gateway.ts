// All app commands go through here, one at a time: app state files are read-modify-written
// by runCli/runAction, so two overlapping commands could lose an update. The daemon appends
// the returned event lines itself (single writer).
import { runAction, runCli, type CommandResult, type WorldContext } from '../apps/index.js';

export interface AppCallContext {
  simTime: string;
  eventId?: string;
  surface?: WorldContext['surface'];
}

export class AppsGateway {
  private chain: Promise<unknown> = Promise.resolve();
  private inFlight = 0;

  constructor(
    private readonly stateDir: string,
    private readonly extra: { fsRoot?: string; ids?: () => string } = {},
  ) {}

  get busy(): boolean {
    return this.inFlight > 0;
  }

  cli(argv: readonly string[], ctx: () => AppCallContext): Promise<CommandResult> {
    return this.serial(() => runCli(argv, this.world(ctx())));
  }

  action(app: string, fn: string, args: Record<string, unknown>, ctx: () => AppCallContext): Promise<CommandResult> {
    return this.serial(() => runAction(app, fn, args, this.world(ctx())));
  }

  private world(c: AppCallContext) {
    return { stateDir: this.stateDir, simTime: c.simTime, eventId: c.eventId, surface: c.surface, ...this.extra };
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
      });
  }
}
