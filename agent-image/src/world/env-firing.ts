// Executes one ENV event the way the reference daemon does (docs/daemon.md, "ENV events and notifications"): args
// with placeholders resolved from earlier return values, run in-process with its event_id,
// the return value kept for later placeholders, and the notification text, if the reference
// sends one. A failed action is logged (ENV_EXEC_FAILED) and sends nothing; its dependents
// still proceed.
import type { EventLine } from '../contract/events.js';
import { pyJsonValue } from '../contract/pyjson.js';
import { resolveArgs, type ReturnLookup, type ScenarioEventModel } from '../scenario/index.js';
import type { AppsGateway } from './apps-gateway.js';
import type { SimClock } from './clock.js';
import type { DaemonLog } from './daemon-log.js';
import { summarizeArgs } from './format.js';
import { formatNotification } from './notifications.js';

export interface EnvHost {
  readonly clock: SimClock;
  readonly apps: AppsGateway;
  readonly log: DaemonLog;
  lookup: ReturnLookup;
  appendEnvLines(lines: EventLine[]): void;
  setReturn(id: string, value: unknown): void;
}

/** Runs ENV event `e` (the i-th of its batch); returns its notification text or null. */
export async function runEnvEvent(e: ScenarioEventModel, i: number, host: EnvHost): Promise<string | null> {
  const a = e.action;
  if (!a) return null;
  const args = resolveArgs(a.args, host.lookup);
  host.log.info(`  ENV[${i}]: ${a.className}.${a.fn}(${summarizeArgs(args)}) [${e.id}]`);
  const r = await host.apps.action(a.app, a.fn, args, () => ({ simTime: host.clock.text(), eventId: e.id }));
  if (r.exitCode !== 0) {
    host.log.warn(`ENV_EXEC_FAILED app=${a.app} fn=${a.fn} event_id=${e.id} exit=${r.exitCode} ${r.stderr.trim()}`);
    return null;
  }
  const lines = r.events.map((l) => ({ ...l, event_id: e.id }));
  host.appendEnvLines(lines);
  const own = lines.find((l) => l.fn === a.fn) ?? lines[lines.length - 1];
  const ret = own ? pyJsonValue(own.ret) : r.stdout.trim();
  host.setReturn(e.id, ret);
  host.log.info(`  result: ${typeof ret === 'string' ? ret : JSON.stringify(ret)}`.slice(0, 500));
  return formatNotification(a.app, a.fn, own?.args ?? args);
}
