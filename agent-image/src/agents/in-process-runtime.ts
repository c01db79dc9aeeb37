// What every runtime that plays inside the daemon process shares (the oracle; test replays of
// recorded logs): busy/idle for fast-forward, a sim time it waits for, the turns the daemon
// has started, and sleeping until a condition holds, woken by any change of the world.
import type { DeliveredPart } from '../contract/agent-protocol.js';
import type { AgentEndpoint } from '../world/agent-endpoint.js';
import type { WorldDaemon } from '../world/daemon.js';

export abstract class InProcessRuntime implements AgentEndpoint {
  abstract readonly name: string;
  protected busy = false;
  protected waitingUntil: number | null = null;
  protected readonly startedTurns: number[] = [];
  protected stopped = false;
  private wakeUp: (() => void) | null = null;

  constructor(protected readonly world: WorldDaemon) {}

  /** Plays the turns; called once, when turn 0 starts. A throw ends the run with status error. */
  protected abstract run(): Promise<void>;

  private async runGuarded(): Promise<void> {
    try {
      await this.run();
    } catch (e) {
      this.world.fail(`${this.name} runtime crashed: ${(e as Error).message}`);
    } finally {
      this.busy = false;
      this.waitingUntil = null;
      this.world.wake();
    }
  }

  deliver(_part: DeliveredPart): string {
    return ''; // in-process runtimes know their script; messages are not needed
  }

  isIdle(): boolean {
    return !this.busy;
  }

  wakeAt(): number | null {
    return this.waitingUntil;
  }

  turnStarted(turn: number): void {
    this.startedTurns.push(turn);
    if (this.startedTurns.length === 1) void this.runGuarded();
    else this.poke();
  }

  poke(): void {
    const w = this.wakeUp;
    this.wakeUp = null;
    w?.();
  }

  shutdown(): void {
    this.stopped = true;
    this.poke();
  }

  /** Idle until the sim clock reaches `target` (fast-forward may jump there). */
  protected async waitForSimTime(target: number): Promise<void> {
    if (this.world.clock.now() >= target) return;
    this.waitingUntil = target;
    this.busy = false;
    this.world.wake();
    await this.until(() => this.world.clock.now() >= target - 1e-6);
    this.waitingUntil = null;
    this.busy = true;
  }

  /** Sleeps until `cond` holds, re-checking whenever the world changes. */
  protected async until(cond: () => boolean): Promise<void> {
    while (!cond() && !this.stopped) {
      const wasBusy = this.busy;
      this.busy = false;
      this.world.wake();
      await Promise.race([this.world.changed(), new Promise<void>((r) => (this.wakeUp = r))]);
      this.busy = wasBusy;
    }
  }
}
