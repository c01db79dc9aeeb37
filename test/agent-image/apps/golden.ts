// Replays a golden CLI transcript (test/fixtures/golden/cli/<app>-1.json) through initWorld +
// runCli, normalising ids and the state dir the way the transcripts' README describes.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { PyFloat, formatEventLine, parsePyJson } from '../../../agent-image/src/contract/pyjson.js';
import { initWorld, runCli } from '../../../agent-image/src/apps/index.js';
import type { StateStore } from '../../../agent-image/src/apps/framework/state-store.js';

const GOLDEN_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../fixtures/golden/cli');

interface Step {
  argv: string[];
  env?: Record<string, string>;
  exit_code: number;
  stdout: string;
  stdout_json: unknown;
  stderr: string;
  events: string[];
}

export interface Transcript {
  app: string;
  seed: Record<string, unknown>;
  class_names?: Record<string, string>;
  fs_backing?: Record<string, string | { base64: string }>;
  clock: string;
  steps: Step[];
  normalised: string[];
}

export function loadTranscript(name: string): Transcript {
  // parsePyJson keeps float literals of the seed as floats, like the reference's init.
  return parsePyJson(readFileSync(join(GOLDEN_DIR, name), 'utf8')) as Transcript;
}

/** Test ids: 32 hex chars, recognisable, in generation order. */
export function idSequence(): { next: () => string; generated: string[] } {
  const generated: string[] = [];
  return {
    generated,
    next: () => {
      const id = `feed${(generated.length + 1).toString(16).padStart(28, '0')}`;
      generated.push(id);
      return id;
    },
  };
}

export async function setupWorld(t: Transcript): Promise<{ stateDir: string; ids: ReturnType<typeof idSequence> }> {
  const root = mkdtempSync(join(tmpdir(), 'gaia2-golden-'));
  const stateDir = join(root, 'state');
  const backing = join(root, 'backing');
  for (const [rel, content] of Object.entries(t.fs_backing ?? {})) {
    const file = join(backing, rel);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, typeof content === 'string' ? content : Buffer.from(content.base64, 'base64'));
  }
  const apps = Object.entries(t.seed).map(([name, app_state]) => ({ name, class_name: t.class_names?.[name] ?? name, app_state }));
  await initWorld({ apps }, stateDir, { fsBackingDir: backing });
  return { stateDir, ids: idSequence() };
}

/** Deep copy with every list of strings sorted (for lists that come from Python sets). */
function sortStringLists(v: unknown): unknown {
  if (v instanceof PyFloat) return v.value;
  if (Array.isArray(v)) {
    const items = v.map(sortStringLists);
    return items.every((x) => typeof x === 'string') ? [...(items as string[])].sort() : items;
  }
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, sortStringLists(x)]));
  return v;
}

export interface ReplayOptions {
  /** Steps whose lists come from Python sets: compare JSON with string lists sorted. */
  setSteps?: number[];
  /** Extra normalisation of our stdout, event lines and stderr (e.g. file times → <FILE_CTIME>). */
  normalise?: (text: string, step: number) => string;
  /** Where the app states live during the replay (default: the state files, per command). */
  states?: StateStore;
}

/** Replays every step and asserts stdout, stderr, exit code and events equal the recording; returns the state dir. */
export async function replayTranscript(t: Transcript, opts: ReplayOptions = {}): Promise<string> {
  const { stateDir, ids } = await setupWorld(t);
  const placeholder = new Map<string, string>();
  const back = new Map<string, string>();
  const normalise = (text: string): string => {
    let out = text.split(stateDir).join('<STATE_DIR>');
    for (const m of out.matchAll(/feed[0-9a-f]{28}/g)) {
      if (!placeholder.has(m[0])) {
        const p = `<ID${placeholder.size + 1}>`;
        placeholder.set(m[0], p);
        back.set(p, m[0]);
      }
    }
    for (const [id, p] of placeholder) out = out.split(id).join(p);
    return out;
  };
  for (const [i, step] of t.steps.entries()) {
    const where = `${t.app} step ${i}: ${step.argv.join(' ')}`;
    const argv = step.argv.map((a) => a.replace(/<ID\d+>/g, (p) => back.get(p) ?? p));
    const r = await runCli(argv, { stateDir, simTime: t.clock, eventId: step.env?.GAIA2_EVENT_ID, ids: ids.next, states: opts.states });
    // Assign placeholders in the README's order: stdout, then events, then stderr.
    const extra = (text: string): string => (opts.normalise ? opts.normalise(text, i) : text);
    const stdout = extra(normalise(r.stdout));
    const events = r.events.map((e) => extra(normalise(formatEventLine(e))));
    const stderr = extra(normalise(r.stderr)).trimEnd();
    expect(r.exitCode, where).toBe(step.exit_code);
    if (step.stderr.startsWith('Traceback')) {
      // Reference crash: we answer with one clear line instead of a stack trace.
      expect(stderr, where).not.toContain('Traceback');
      expect(stderr.length, where).toBeGreaterThan(0);
    } else expect(stderr, where).toBe(step.stderr);
    if (opts.setSteps?.includes(i)) {
      expect(sortStringLists(JSON.parse(stdout)), where).toEqual(sortStringLists(step.stdout_json));
      expect(events.map((e) => sortStringLists(JSON.parse(e))), where).toEqual(step.events.map((e) => sortStringLists(JSON.parse(e))));
    } else {
      expect(stdout, where).toBe(step.stdout);
      expect(events, where).toEqual(step.events);
    }
  }
  return stateDir;
}
