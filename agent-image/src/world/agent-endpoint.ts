// The daemon's view of whoever plays the agent: an in-process runtime (oracle) or a session
// over the agent socket (default LLM agent, scripted).
import type { DeliveredPart } from '../contract/agent-protocol.js';

export interface AgentEndpoint {
  readonly name: string;
  /** A user message or notification for the agent; returns the run id it belongs to.
   *  Endpoints call WorldDaemon.recordDelivered when it reaches the agent (the in-process
   *  oracle needs no messages and records none, as in the reference's file mode). */
  deliver(part: DeliveredPart): string;
  /** Fast-forward may jump the clock only while this is true. */
  isIdle(): boolean;
  /** Sim time the agent itself waits for (fast-forward jumps no further), or null. */
  wakeAt(): number | null;
  /** Turn k may start (k = 0 at the start, k ≥ 1 when condition k passed). */
  turnStarted?(turn: number): void;
  /** The world changed (clock moved, events fired): wake waiting in-process runtimes. */
  poke?(): void;
  /** Terminal status reached. */
  shutdown(status: string, reason: string): void;
}
