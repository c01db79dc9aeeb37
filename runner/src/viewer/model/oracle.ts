// The scenario JSON named by result.json `scenario_file`: the task and the oracle actions.
// Read once per path per build; a missing or broken file just leaves them out. Only the
// `events` member is parsed: a universe of real size is megabytes of app state shown nowhere.
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { asArr, asObj, asStr } from '../../trace/json-util.js';
import { topLevelMembers } from './json-members.js';

export interface OracleEvent {
  id: string;
  type: string;
  tool: string;
  args: Record<string, unknown>;
  deps: string[];
}

export interface ScenarioInfo {
  task: string;
  oracle: OracleEvent[];
}

const EMPTY: ScenarioInfo = { task: '', oracle: [] };

/** Scenario arg values are strings holding JSON for lists and dicts: decode them for display. */
function decodeValue(v: unknown, type: string): unknown {
  if (typeof v !== 'string' || !/^(list|dict|tuple|bool|int|float)/.test(type)) return v;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

export function argsObject(args: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const a of asArr(args)) {
    const arg = asObj(a);
    out[asStr(arg.name)] = decodeValue(arg.value, asStr(arg.value_type));
  }
  return out;
}

export function parseScenarioInfo(data: Record<string, unknown>): ScenarioInfo {
  const oracle: OracleEvent[] = [];
  let task = '';
  for (const e of asArr(data.events)) {
    const ev = asObj(e);
    const action = asObj(ev.action);
    const args = argsObject(action.args);
    const fn = asStr(action.function);
    if (!task && ev.event_type === 'USER' && fn === 'send_message_to_agent') task = asStr(args.content);
    oracle.push({
      id: asStr(ev.event_id),
      type: asStr(ev.event_type),
      tool: `${asStr(action.class_name) || asStr(action.app)}__${fn}`,
      args,
      deps: asArr(ev.dependencies).map(asStr),
    });
  }
  return { task, oracle };
}

export class ScenarioInfoCache {
  private readonly byPath = new Map<string, ScenarioInfo>();

  /** `file` may be absolute or relative to the scenario run dir or the run dir. */
  get(file: string, ...bases: string[]): ScenarioInfo {
    if (!file) return EMPTY;
    const candidates = isAbsolute(file) ? [file] : bases.map((b) => resolve(b, file));
    const path = candidates.find((p) => existsSync(p));
    if (!path) return EMPTY;
    let info = this.byPath.get(path);
    if (!info) {
      info = readScenarioInfo(path);
      this.byPath.set(path, info);
    }
    return info;
  }
}

const EVENTS = new Set(['events']);

function readScenarioInfo(path: string): ScenarioInfo {
  try {
    const members = topLevelMembers(readFileSync(path), EVENTS);
    if (!members) return EMPTY;
    const events = members.get('events');
    return parseScenarioInfo({ events: events === undefined ? [] : (JSON.parse(events) as unknown) });
  } catch {
    return EMPTY;
  }
}
