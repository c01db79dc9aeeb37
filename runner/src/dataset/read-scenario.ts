// Reads one scenario file into an entry, with errors that name the file and the field.
import { readFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { parseScenario, scenarioSplit, type Scenario } from '../../../agent-image/src/contract/scenario.js';
import { DatasetError } from './errors.js';
import { inferSplit, stem, type ScenarioEntry } from './entry.js';

export function parseJsonFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new DatasetError(`cannot read scenario file ${file}: ${(e as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new DatasetError(`${file}: invalid JSON (${(e as Error).message})`);
  }
}

/** A JSON object that declares itself a scenario (an id and an events list). */
export function looksLikeScenario(data: unknown): boolean {
  const d = data as { metadata?: { definition?: { scenario_id?: unknown } }; events?: unknown } | null;
  const id = d?.metadata?.definition?.scenario_id;
  return typeof id === 'string' && id.length > 0 && Array.isArray(d?.events);
}

export function validScenario(data: unknown, file: string): Scenario {
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw new DatasetError(`${file}: a scenario must be a JSON object`);
  try {
    return parseScenario(data, file);
  } catch (e) {
    throw new DatasetError((e as Error).message);
  }
}

export function safeId(id: string, where: string): string {
  if (!id || id === '.' || id === '..' || /[/\\\0]/.test(id)) throw new DatasetError(`${where}: scenario_id ${JSON.stringify(id)} cannot be used as a directory name`);
  return id;
}

export function toEntry(file: string, scenario: Scenario, root: string | null): ScenarioEntry {
  const def = scenario.metadata?.definition;
  const top = scenario as { duration?: unknown };
  const duration = def?.duration || (typeof top.duration === 'number' ? top.duration : null) || null;
  const relDir = root ? relative(root, dirname(file)) : '';
  return {
    file,
    id: safeId(def?.scenario_id || stem(file), file),
    relDir: relDir.startsWith('..') ? '' : relDir,
    split: inferSplit(file, root, scenarioSplit(scenario)),
    startTime: def?.start_time && def.start_time > 0 ? def.start_time : null,
    duration,
  };
}

export function readScenarioEntry(file: string, root: string | null): ScenarioEntry {
  return toEntry(file, validScenario(parseJsonFile(file), file), root);
}
