// Fires the scenario events that are due at the current sim time, batch by batch until none
// is: a USER event delivers its message (root USER events are the task, sent at connect, as
// in the reference); an ENV event runs its action (env-firing.ts). The notifications of one
// batch reach the agent as one bundled message.
import type { DeliveredPart } from '../contract/agent-protocol.js';
import { SEND_MESSAGE_TO_AGENT } from '../contract/events.js';
import type { LoadedScenario, ScenarioEventModel } from '../scenario/index.js';
import { runEnvEvent, type EnvHost } from './env-firing.js';
import { bundleNotifications } from './notifications.js';
import type { ScenarioSchedule } from './schedule.js';

export interface FiringHost extends EnvHost {
  readonly schedule: ScenarioSchedule;
  readonly isTerminal: boolean;
  /** Replies so far (named in the log). */
  readonly turn: number;
  activity(): void;
  deliver(part: DeliveredPart): void;
  /** A batch fired: wake change waiters and in-process runtimes. */
  batchFired(): void;
}

export async function fireDueEvents(host: FiringHost): Promise<void> {
  for (;;) {
    const due = host.schedule.takeDue(host.clock.now());
    if (due.length === 0) return;
    const envCount = due.filter((d) => d.event.type === 'ENV').length;
    if (envCount) host.log.info(`Time advance: sim=${host.clock.now().toFixed(1)} (+0s), firing ${envCount} ENV actions`);
    const notes: string[] = [];
    for (const [i, d] of due.entries()) {
      const n = await fireOne(d.event, i, host);
      if (n) notes.push(n);
      if (host.isTerminal) return;
    }
    const bundle = bundleNotifications(notes);
    if (bundle) {
      host.log.info(`Sending ${notes.length} bundled notification(s) (turn ${host.turn})`);
      for (const n of notes) host.log.info(`Notification: ${n}`);
      host.deliver({ kind: 'notification', text: bundle });
    }
    host.batchFired();
  }
}

/** Fires event `e` (the i-th of its batch); returns its notification text or null. */
async function fireOne(e: ScenarioEventModel, i: number, host: FiringHost): Promise<string | null> {
  host.activity();
  if (e.type === 'USER') {
    host.schedule.complete(e.id, host.clock.now());
    const text = userMessageText(e);
    if (e.dependencies.length > 0 && text !== null) {
      host.log.info(`Delivering user message ${e.id}`);
      host.deliver({ kind: 'user', text });
    }
    return null;
  }
  const note = await runEnvEvent(e, i, host);
  host.schedule.complete(e.id, host.clock.now());
  return note;
}

/** The task: the root USER event that messages the agent (else the first root USER event). */
export function taskEvent(sc: LoadedScenario): ScenarioEventModel | null {
  const rootUser = sc.userEvents.filter((e) => e.dependencies.length === 0);
  return rootUser.find((e) => e.action?.fn === SEND_MESSAGE_TO_AGENT) ?? rootUser[0] ?? null;
}

/** The message a USER event sends, or null when it has none. */
export function userMessageText(e: ScenarioEventModel): string | null {
  const c = e.action?.args.content;
  return typeof c === 'string' ? c : c === undefined || c === null ? null : String(c);
}
