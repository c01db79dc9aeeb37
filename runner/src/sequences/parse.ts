// A sequences file: one universe chain per line, `{universe_id, cap?, scenarios: [{scenario_id}]}`
// (the reference runner's interface, docs/protocol.md "Universe chains"). Checked whole before
// anything runs: every bad line is named by file:line, and ids are checked against the dataset.
import { readFileSync } from 'node:fs';
import { ConfigError } from '../plan/errors.js';

export interface Chain {
  /** The universe the chain plays in: names the chain and its checkpoint folder. */
  universeId: string;
  /** Scenario ids in play order; already cut to `cap` when the line has one. */
  scenarioIds: string[];
  /** Line of the file, for messages. */
  line: number;
}

const LINE_KEYS = new Set(['universe_id', 'cap', 'scenarios']);

/** Parses and checks a sequences file's text; `file` names it in every error. */
export function parseSequences(text: string, file: string): Chain[] {
  const chains: Chain[] = [];
  const universes = new Map<string, number>();
  const scenarios = new Map<string, number>();
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.trim();
    if (!raw) continue;
    const at = `${file}:${i + 1}`;
    const chain = parseLine(raw, at, i + 1);
    const seen = universes.get(chain.universeId);
    if (seen !== undefined) throw new ConfigError(`${at}: universe_id ${JSON.stringify(chain.universeId)} is already the chain of line ${seen}`);
    universes.set(chain.universeId, i + 1);
    for (const id of chain.scenarioIds) {
      const where = scenarios.get(id);
      // A scenario belongs to one place in one chain: its result and artifacts have one folder.
      if (where !== undefined) throw new ConfigError(`${at}: scenario_id ${JSON.stringify(id)} is already in the chain of line ${where}`);
      scenarios.set(id, i + 1);
    }
    chains.push(chain);
  }
  if (chains.length === 0) throw new ConfigError(`${file}: the sequences file has no chains (one JSON object per line: {"universe_id", "scenarios": [{"scenario_id"}]})`);
  return chains;
}

function parseLine(raw: string, at: string, line: number): Chain {
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch (e) {
    throw new ConfigError(`${at}: not a JSON object: ${(e as Error).message}`);
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new ConfigError(`${at}: not a JSON object`);
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o)) if (!LINE_KEYS.has(k)) throw new ConfigError(`${at}: unknown key ${JSON.stringify(k)} (known: universe_id, cap, scenarios)`);
  if (typeof o.universe_id !== 'string' || !o.universe_id.trim()) throw new ConfigError(`${at}: universe_id must be a non-empty string`);
  // It names a folder of the output directory: nothing that could climb out of it.
  if (!/^[\w.-]+$/.test(o.universe_id) || /^\.+$/.test(o.universe_id))
    throw new ConfigError(`${at}: universe_id ${JSON.stringify(o.universe_id)} may hold only letters, digits, '_', '-' and '.'`);
  if (!Array.isArray(o.scenarios) || o.scenarios.length === 0) throw new ConfigError(`${at}: scenarios must be a non-empty list of {"scenario_id": …}`);
  const ids = o.scenarios.map((s, j) => {
    const sid = s && typeof s === 'object' && !Array.isArray(s) ? (s as Record<string, unknown>).scenario_id : undefined;
    if (typeof sid !== 'string' || !sid.trim()) throw new ConfigError(`${at}: scenarios[${j}].scenario_id must be a non-empty string`);
    return sid;
  });
  let cap: number | null = null;
  if (o.cap !== undefined && o.cap !== null) {
    if (typeof o.cap !== 'number' || !Number.isInteger(o.cap) || o.cap < 1) throw new ConfigError(`${at}: cap must be an integer >= 1 (got ${JSON.stringify(o.cap)})`);
    cap = o.cap;
  }
  return { universeId: o.universe_id, scenarioIds: cap === null ? ids : ids.slice(0, cap), line };
}

/** Reads and parses a sequences file. */
export function readSequences(file: string): Chain[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigError(`cannot read the sequences file ${file}: ${(e as Error).message}`);
  }
  return parseSequences(text, file);
}
