// Reads one scenario file into an entry, with errors that name the file and the field.
// This is the host's only parse of a scenario (docs/runner.md, "A scenario's facts"): the
// file's bytes are read once, hashed, parsed and validated once, and only the facts a run needs
// are kept. The bytes themselves are not held: a run reads them again for delivery, unchanged,
// and checks them against the hash (scenarioContent, streamed as they are sent), so 800
// planned 5 MB scenarios cost their facts, not 4 GB, and an upload in flight costs a chunk.
import { createHash } from 'node:crypto';
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { Transform, type Readable } from 'node:stream';
import { dirname, relative } from 'node:path';
import { parseScenario, scenarioId, scenarioSplit, scenarioStartTime, type Scenario } from '@gaia2/contract/scenario';
import { sha256Hex } from '../fsutil/hash.js';
import { DatasetError } from './errors.js';
import { inferSplit, stem, type ScenarioEntry } from './entry.js';
import { firstUserTask } from './first-task.js';

/** How many scenario texts this process has parsed (tests prove each file is parsed once). */
export const scenarioParses = { count: 0 };

function readBytes(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (e) {
    throw new DatasetError(`cannot read scenario file ${file}: ${(e as Error).message}`);
  }
}

function parseJsonText(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new DatasetError(`${where}: invalid JSON (${(e as Error).message})`);
  }
}

/** A JSON file that is not a scenario (a subset manifest). */
export function parseJsonFile(file: string): unknown {
  return parseJsonText(readBytes(file).toString('utf8'), file);
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

/** The facts of a parsed scenario, by the contract's rules (one rule for every caller). */
export function toEntry(file: string, scenario: Scenario, root: string | null, bytes: Buffer | string): ScenarioEntry {
  const relDir = root ? relative(root, dirname(file)) : '';
  const duration = scenario.metadata?.definition?.duration;
  return {
    file,
    id: safeId(scenarioId(scenario, '') || stem(file), file),
    relDir: relDir.startsWith('..') ? '' : relDir,
    split: inferSplit(file, root, scenarioSplit(scenario)),
    startTime: scenarioStartTime(scenario),
    duration: typeof duration === 'number' && duration > 0 ? duration : null,
    sha256: sha256Hex(bytes),
    bytes: Buffer.byteLength(bytes),
    // Only an event-less scenario needs its task from the host (POST /notify).
    notifyTask: scenario.events.length === 0 ? firstUserTask(scenario) : null,
  };
}

/**
 * Parses scenario text once. `onlyScenarios`: JSON that is not a scenario (a manifest in a
 * dataset directory) gives null instead of an error.
 */
export function parseScenarioBytes(bytes: Buffer | string, where: string, onlyScenarios = false): Scenario | null {
  scenarioParses.count++;
  const data = parseJsonText(typeof bytes === 'string' ? bytes : bytes.toString('utf8'), where);
  if (onlyScenarios && !looksLikeScenario(data)) return null;
  return validScenario(data, where);
}

/** A scenario file → its entry. */
export function readScenarioEntry(file: string, root: string | null): ScenarioEntry {
  return readScenarioFile(file, root)!.entry;
}

/** A scenario file → its entry and the bytes it was parsed from (a run outside a plan). */
export function readScenarioFile(file: string, root: string | null, onlyScenarios = false): { entry: ScenarioEntry; bytes: Buffer } | null {
  const bytes = readBytes(file);
  const scenario = parseScenarioBytes(bytes, file, onlyScenarios);
  return scenario && { entry: toEntry(file, scenario, root, bytes), bytes };
}

const changed = (file: string): DatasetError => new DatasetError(`${file}: the scenario file changed after the run was planned; start the run again`);

/**
 * A planned scenario's bytes for delivery, read from disk each time they are sent (a retried
 * delivery opens it again) and never held whole. The size is checked now; the hash as the
 * bytes stream: a file changed since planning ends its stream with a DatasetError before the
 * last byte, so the receiver never completes it (its facts would no longer be its own).
 */
export function scenarioContent(entry: Pick<ScenarioEntry, 'file' | 'sha256' | 'bytes'>): { size: number; open(): Readable } {
  let size: number;
  try {
    size = statSync(entry.file).size;
  } catch (e) {
    throw new DatasetError(`cannot read scenario file ${entry.file}: ${(e as Error).message}`);
  }
  if (size !== entry.bytes) throw changed(entry.file);
  return {
    size,
    open: () => {
      const hash = createHash('sha256');
      // The last chunk is held back until the hash is known: a receiver never gets every byte
      // of a changed file (it waits for Content-Length's worth, then renames into place).
      let held: Buffer | null = null;
      const check = new Transform({
        transform(chunk: Buffer, _enc, done) {
          hash.update(chunk);
          const out = held;
          held = chunk;
          done(null, out ?? undefined);
        },
        flush(done) {
          if (hash.digest('hex') !== entry.sha256) return done(changed(entry.file));
          done(null, held ?? undefined);
        },
      });
      const file = createReadStream(entry.file);
      file.on('error', (e) => check.destroy(new DatasetError(`cannot read scenario file ${entry.file}: ${e.message}`)));
      // A delivery cut short (a reset connection) must not leave the file open.
      check.on('close', () => file.destroy());
      return file.pipe(check);
    },
  };
}
