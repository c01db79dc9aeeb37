// --replay RUN_DIR: every model request is answered from a finished run's traffic record, no
// provider involved. A request is matched by its container's place in the run (the scenario
// directory relative to the run: run index and scenario), its role and its number within that
// role; its body must equal the recorded one (JSON compared by value). The first request that
// differs, or has no recorded answer, is refused with a message naming it and the first field
// that differs, and the run ends with that error instead of quietly diverging.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../plan/errors.js';
import { TRAFFIC_FILE, type TrafficLine } from './record.js';
import type { Grant, Role } from './tokens.js';

export type ReplayAnswer = { status: number; body: string; stream: boolean } | { mismatch: string };

export interface ReplaySource {
  answer(g: Grant, seq: number, req: { method: string; url: string; requestText: string }): ReplayAnswer;
  /** A container's run ended: its record leaves memory (read again if a later container needs it). */
  forget(recordKey: string): void;
}

/** The first JSON path where two values differ; null when equal. */
export function firstDifference(a: unknown, b: unknown, path = '$'): string | null {
  if (a === b) return null;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return path;
  if (Array.isArray(a) !== Array.isArray(b)) return path;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    for (let i = 0; i < Math.max(a.length, bb.length); i++) {
      const d = i < a.length && i < bb.length ? firstDifference(a[i], bb[i], `${path}[${i}]`) : `${path}[${i}]`;
      if (d) return d;
    }
    return null;
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  for (const k of new Set([...Object.keys(ao), ...Object.keys(bo)])) {
    const d = k in ao && k in bo ? firstDifference(ao[k], bo[k], `${path}.${k}`) : `${path}.${k}`;
    if (d) return d;
  }
  return null;
}

const VOLATILE: Array<[RegExp, string]> = [
  [/\b\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?\b/g, '<datetime>'],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>'],
  [/\b[0-9a-f]{32}\b/gi, '<id>'],
];

/** A request body with its run-to-run volatile values masked (strings only). */
export function maskVolatile(v: unknown): unknown {
  if (typeof v === 'string') return VOLATILE.reduce((s, [re, to]) => s.replace(re, to), v);
  if (Array.isArray(v)) return v.map(maskVolatile);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, maskVolatile(x)]));
  return v;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const short = (v: unknown) => {
  const s = JSON.stringify(v);
  return s === undefined ? 'nothing' : s.length > 120 ? `${s.slice(0, 117)}...` : s;
};

function valueAt(v: unknown, path: string): unknown {
  let cur: unknown = v;
  for (const part of path.replace(/^\$/, '').match(/\.[^.[]+|\[\d+\]/g) ?? []) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = part.startsWith('[') ? (cur as unknown[])[Number(part.slice(1, -1))] : (cur as Record<string, unknown>)[part.slice(1)];
  }
  return cur;
}

/** A replay source reading `<runDir>/<scenario dir>/model_traffic.jsonl` lazily per container. */
export function replayFrom(runDir: string): ReplaySource {
  if (!existsSync(runDir)) throw new ConfigError(`--replay: ${runDir} does not exist`);
  return replayOf((recordKey) => readReplayRecord(runDir, recordKey), (recordKey) => join(runDir, recordKey, TRAFFIC_FILE));
}

/** A container's record in a finished run (its model_traffic.jsonl text); null when it has none. */
export function readReplayRecord(runDir: string, recordKey: string): string | null {
  const file = join(runDir, recordKey, TRAFFIC_FILE);
  return existsSync(file) ? readFileSync(file, 'utf8') : null;
}

/**
 * A replay source over records read by `load` (a container's model_traffic.jsonl text, null when
 * it has none): the run directory on this machine, or records the runner handed to an
 * in-cluster gateway. `where` names a record in messages.
 */
export function replayOf(load: (recordKey: string) => string | null, where: (recordKey: string) => string): ReplaySource {
  const cache = new Map<string, Map<Role, TrafficLine[]>>();
  const linesOf = (recordKey: string): Map<Role, TrafficLine[]> => {
    let m = cache.get(recordKey);
    if (m) return m;
    m = new Map();
    for (const text of (load(recordKey) ?? '').split('\n')) {
      if (!text.trim()) continue;
      let l: TrafficLine;
      try {
        l = JSON.parse(text) as TrafficLine;
      } catch {
        continue; // a torn last line of a killed run
      }
      const list = m.get(l.role) ?? [];
      list[l.seq - 1] = l;
      m.set(l.role, list);
    }
    cache.set(recordKey, m);
    return m;
  };
  return {
    answer(g, seq, req) {
      const at = `${g.role} request #${seq} of ${g.recordKey || g.container}`;
      const recorded = linesOf(g.recordKey).get(g.role) ?? [];
      const line = recorded[seq - 1];
      if (!line) return { mismatch: `replay: ${at} has no recorded answer in ${where(g.recordKey)} (it recorded ${recorded.filter(Boolean).length} ${g.role} request(s))` };
      const now = parse(req.requestText);
      const diff = firstDifference(maskVolatile(line.request), maskVolatile(now));
      if (diff)
        return {
          mismatch: `replay: ${at} differs from the recorded one at ${diff} (recorded ${short(valueAt(line.request, diff))}, now ${short(valueAt(now, diff))})`,
        };
      return { status: line.http_status || 502, body: line.raw_response, stream: line.stream };
    },
    forget: (recordKey) => void cache.delete(recordKey),
  };
}
