// Reading one scenario run directory. Every reader tolerates missing or broken files:
// a run in progress holds only some of them, and a bad artifact must not stop the build.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isObj, type Obj } from '../../trace/json-util.js';

/** Files whose change means the scenario's page must be rebuilt. */
export const TRACKED_ARTIFACTS = [
  'result.json',
  'events.jsonl',
  'daemon_status.json',
  'daemon_judgments.jsonl',
  'judgments.jsonl',
  'trace.jsonl',
  'app_agents_trace.jsonl',
  'model_traffic.jsonl',
  'noise.jsonl',
  'agent_response.txt',
  'eventd.log',
] as const;

/** Any of these in a directory makes it a scenario run directory. */
export const SCENARIO_MARKERS = ['result.json', 'trace.jsonl', 'events.jsonl', 'daemon_status.json'] as const;

export function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

export function readJsonObject(path: string): Obj | null {
  const text = readText(path);
  if (!text.trim()) return null;
  try {
    const v = JSON.parse(text) as unknown;
    return isObj(v) ? v : null;
  } catch {
    return null;
  }
}

/** Complete lines that are JSON objects; a torn last line or garbage is skipped. */
export function readJsonlObjects(path: string): Obj[] {
  const out: Obj[] = [];
  for (const line of readText(path).split('\n')) {
    const s = line.trim();
    if (!s) continue;
    try {
      const v = JSON.parse(s) as unknown;
      if (isObj(v)) out.push(v);
    } catch {
      // skipped: shown in the raw file link instead
    }
  }
  return out;
}

export interface ArtifactStat {
  size: number;
  mtimeMs: number;
}

/** Files a scenario page reads or links (the tracked ones plus logs and the page itself). */
const KNOWN_FILES = new Set<string>([...TRACKED_ARTIFACTS, 'entrypoint.log', 'trace.html']);

/** One readdir (unless the names are known) and a stat per known file present. */
export function scanArtifacts(dir: string, knownNames?: string[]): Map<string, ArtifactStat> {
  const out = new Map<string, ArtifactStat>();
  let names: string[];
  try {
    names = knownNames ?? readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of names) {
    if (!KNOWN_FILES.has(name)) continue;
    try {
      const st = statSync(join(dir, name));
      if (st.isFile()) out.set(name, { size: st.size, mtimeMs: st.mtimeMs });
    } catch {
      // vanished between readdir and stat
    }
  }
  return out;
}

/** A cheap change signature: name, size and mtime of every tracked artifact present. */
export function artifactSignature(files: Map<string, ArtifactStat>): string {
  const parts: string[] = [];
  for (const name of TRACKED_ARTIFACTS) {
    const st = files.get(name);
    if (st) parts.push(`${name}:${st.size}:${Math.floor(st.mtimeMs)}`);
  }
  return parts.join('|');
}
